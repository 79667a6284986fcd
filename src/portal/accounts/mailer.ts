import { createTransport } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * How the portal's mail leaves: through SMTP, or (sandbox without `SMTP_URL`) into the log, where the
 * developer running the sandbox reads the link; the page then shows the link too.
 */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** False when mail only goes to the log: the page shows the link itself. */
  delivers: boolean;
}

/** Mail over SMTP (`smtp://` or `smtps://`, credentials in the URL), from `from`. */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = createTransport(url);
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/** The sandbox's mail without a server: one log line per message, with its text (the link). */
export function createLogMailer(log: (fields: Record<string, unknown>, message: string) => void): Mailer {
  return {
    delivers: false,
    async send(mail) {
      log({ event: 'portal_mail_logged', subject: mail.subject }, `sandbox mail (no SMTP_URL): ${mail.text}`);
    },
  };
}
