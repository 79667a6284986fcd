import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on a loopback port that keeps what it receives (RFC 5321 over TCP, through the
 * `smtp-server` package), so a test reads the portal's mail as a mailbox would.
 */
export async function startMailbox() {
  const received: ReceivedMail[] = [];
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiting.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The first link of the newest mail to `address` under `path`, waiting for it to arrive. */
    async linkFor(address: string, path: string): Promise<URL> {
      for (;;) {
        const mail = received.filter((m) => m.to.includes(address)).at(-1);
        // Quoted-printable may fold a long line with a trailing "=".
        const text = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const link = text && new RegExp(`https?://\\S+${path}\\?token=[\\w-]+`).exec(text)?.[0];
        if (link) return new URL(link);
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Mailbox = Awaited<ReturnType<typeof startMailbox>>;
