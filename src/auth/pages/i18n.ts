import type { Language } from '../oauth/language.js';

/** Every text of the enrollee-facing pages, in English and Spanish (docs/decisions.md#consent-page). */
const en = {
  htmlLang: 'en',
  serviceName: 'openenroll',
  loginTitle: 'Log in to share your health plan data',
  loginIntro: 'Log in with your health plan account to continue to the app that asked for your data.',
  username: 'Username',
  password: 'Password',
  logIn: 'Log in',
  loginInvalid: 'Incorrect username or password.',
  loginLocked: 'Too many failed attempts for this username. Try again in {minutes} minutes.',
  sourceLimitedSeconds: 'Too many sign-in attempts from your network. Try again in {count} seconds.',
  sourceLimitedMinutes: 'Too many sign-in attempts from your network. Try again in {count} minutes.',
  sandboxHint: 'Sandbox: use a synthetic enrollee such as BBUser00000 with password PW00000!',
  consentTitle: 'Connect your health plan claims data to {app}?',
  consentIntro: 'If you connect, {app} will have access to information about your:',
  doctorVisits: 'Doctor visits',
  hospitalVisits: 'Hospital visits',
  prescriptions: 'Prescription medications',
  coverageInfo: 'Coverage: your plan, its dates and your member ID',
  identityInfo: 'Your enrollee ID, so the app knows whose data it holds',
  alsoGrant: 'You can also grant access to your:',
  onlyGrant: 'If you connect, {app} will have access to your:',
  personalInfo: 'Personal Information',
  personalInfoDetail: 'Your name, address, date of birth, race, and sex',
  personalInfoHint: 'Uncheck to block access to personal information.',
  accessThirteenMonths: '{app} will have access to your data for 13 months, until {date}.',
  accessHours: '{app} will have access to your data for {hours} hours.',
  accessHour: '{app} will have access to your data for 1 hour.',
  learnMore: 'Learn more about how {app} uses your data in their',
  privacyPolicy: 'Privacy Policy',
  and: 'and',
  terms: 'Terms and Conditions',
  connect: 'Connect',
  cancel: 'Cancel',
  switchLanguage: 'Cambiar a español',
  errorTitle: 'Something went wrong',
  sessionExpired:
    'This authorization request has expired or was already answered. Return to the app and start again.',
  formTampered: 'The form could not be verified. Return to the app and start again.',
  notFound: 'Not found.',
  loggedIn: 'You are logged in. Return to the app to continue.',
  connectedAppsTitle: 'Your connected apps',
  connectedAppsIntro:
    'These apps can read your health plan claims data. Revoke an app to stop sharing at once.',
  noConnectedApps: 'No app has access to your data.',
  appColumn: 'App',
  accessColumn: 'Access',
  expiresColumn: 'Access ends',
  revoke: 'Revoke',
  never: 'No end date',
  durationThirteenMonths: '13 months',
  durationHours: '{hours} hours',
  durationResearch: 'Research',
  revoked: 'Access for {app} was revoked.',
  connectedAppsLink: 'connected apps page',
  stopSharing: 'To stop sharing your information with {app}, visit the {link} of your account.',
  signOut: 'Sign out',
  signedOutTitle: 'You are signed out',
  signedOut:
    'You are signed out of openenroll on this browser. Apps you connected keep their access until you revoke it.',
  signInAgain: 'Sign in again',
  appIdFailed: 'The app did not say who it is (no client_id).',
  appNotFound: 'No app is registered with this client_id.',
  appInactive: 'This application, {app}, is temporarily inactive.',
  redirectMissing: 'The app did not give its redirect URI.',
  redirectMismatch: 'The redirect URI does not match the ones registered for the app.',
  signInWith: 'Sign in with {label}',
  testAccounts: 'Or log in with a sandbox test account:',
  signInNotConfigured:
    'Sign-in is not available yet: this health plan has not connected its member sign-in service. Please contact the health plan.',
  idpUnavailable:
    "Your health plan's sign-in service cannot be reached right now. Please try again in about {seconds} seconds.",
  idpStateInvalid:
    'This sign-in does not match a request started in this browser, was already used, or has expired. Return to the app and start again.',
  idpSignInFailed: "Your health plan's sign-in service did not complete the sign-in. Please try again.",
  idpTokenInvalid:
    "The answer from your health plan's sign-in service could not be verified, so you were not signed in. Please try again.",
  idpNoClaimsData:
    'You signed in, but no health plan claims data is linked to your account, so no app can be given access to it. Please contact your health plan.',
  idpCancelled: 'Sign-in was cancelled.',
  tryAgain: 'Try again',
  returnToApp: 'Return to the app',
};

type Catalogue = typeof en;

const es: Catalogue = {
  htmlLang: 'es',
  serviceName: 'openenroll',
  loginTitle: 'Inicie sesión para compartir los datos de su plan de salud',
  loginIntro:
    'Inicie sesión con la cuenta de su plan de salud para continuar a la aplicación que pidió sus datos.',
  username: 'Nombre de usuario',
  password: 'Contraseña',
  logIn: 'Iniciar sesión',
  loginInvalid: 'El nombre de usuario o la contraseña no son correctos.',
  loginLocked: 'Demasiados intentos fallidos para este usuario. Inténtelo de nuevo en {minutes} minutos.',
  sourceLimitedSeconds:
    'Demasiados intentos de inicio de sesión desde su red. Inténtelo de nuevo en {count} segundos.',
  sourceLimitedMinutes:
    'Demasiados intentos de inicio de sesión desde su red. Inténtelo de nuevo en {count} minutos.',
  sandboxHint: 'Sandbox: use un afiliado sintético como BBUser00000 con la contraseña PW00000!',
  consentTitle: '¿Desea compartir los datos de reclamos de su plan de salud con {app}?',
  consentIntro: 'Si los comparte, {app} tendrá acceso a la información sobre sus:',
  doctorVisits: 'Visitas al médico',
  hospitalVisits: 'Visitas al hospital',
  prescriptions: 'Medicamentos recetados',
  coverageInfo: 'Cobertura: su plan, sus fechas y su número de miembro',
  identityInfo: 'Su número de afiliado, para que la aplicación sepa de quién son los datos',
  alsoGrant: 'También puede compartir su:',
  onlyGrant: 'Si los comparte, {app} tendrá acceso a su:',
  personalInfo: 'Información personal',
  personalInfoDetail: 'Su nombre, dirección, fecha de nacimiento, raza y sexo',
  personalInfoHint: 'Quite la marca para no compartir su información personal.',
  accessThirteenMonths: '{app} tendrá acceso a sus datos durante 13 meses, hasta el {date}.',
  accessHours: '{app} tendrá acceso a sus datos durante {hours} horas.',
  accessHour: '{app} tendrá acceso a sus datos durante 1 hora.',
  learnMore: 'Obtenga más información sobre cómo {app} utiliza sus datos en su',
  privacyPolicy: 'Política de Privacidad',
  and: 'y',
  terms: 'Términos y Condiciones',
  connect: 'Conectar',
  cancel: 'Cancelar',
  switchLanguage: 'Change to English',
  errorTitle: 'Algo salió mal',
  sessionExpired:
    'Esta solicitud de autorización venció o ya fue respondida. Regrese a la aplicación y comience de nuevo.',
  formTampered: 'No se pudo verificar el formulario. Regrese a la aplicación y comience de nuevo.',
  notFound: 'No encontrado.',
  loggedIn: 'Ha iniciado sesión. Regrese a la aplicación para continuar.',
  connectedAppsTitle: 'Sus aplicaciones conectadas',
  connectedAppsIntro:
    'Estas aplicaciones pueden leer los datos de reclamos de su plan de salud. Revoque una aplicación para dejar de compartir de inmediato.',
  noConnectedApps: 'Ninguna aplicación tiene acceso a sus datos.',
  appColumn: 'Aplicación',
  accessColumn: 'Acceso',
  expiresColumn: 'El acceso termina',
  revoke: 'Revocar',
  never: 'Sin fecha de fin',
  durationThirteenMonths: '13 meses',
  durationHours: '{hours} horas',
  durationResearch: 'Investigación',
  revoked: 'Se revocó el acceso de {app}.',
  connectedAppsLink: 'página de aplicaciones conectadas',
  stopSharing: 'Para dejar de compartir su información con {app}, visite la {link} de su cuenta.',
  signOut: 'Cerrar sesión',
  signedOutTitle: 'Cerró su sesión',
  signedOut:
    'Cerró su sesión de openenroll en este navegador. Las aplicaciones que conectó conservan su acceso hasta que lo revoque.',
  signInAgain: 'Iniciar sesión de nuevo',
  appIdFailed: 'La aplicación no indicó quién es (falta client_id).',
  appNotFound: 'No hay ninguna aplicación registrada con este client_id.',
  appInactive: 'La aplicación {app} está inactiva temporalmente.',
  redirectMissing: 'La aplicación no indicó su URI de redirección.',
  redirectMismatch: 'La URI de redirección no coincide con las registradas para la aplicación.',
  signInWith: 'Iniciar sesión con {label}',
  testAccounts: 'O inicie sesión con una cuenta de prueba del sandbox:',
  signInNotConfigured:
    'El inicio de sesión todavía no está disponible: este plan de salud aún no ha conectado su servicio de inicio de sesión para afiliados. Comuníquese con el plan de salud.',
  idpUnavailable:
    'No es posible comunicarse en este momento con el servicio de inicio de sesión de su plan de salud. Inténtelo de nuevo en unos {seconds} segundos.',
  idpStateInvalid:
    'Este inicio de sesión no corresponde a una solicitud iniciada en este navegador, ya se usó o venció. Regrese a la aplicación y comience de nuevo.',
  idpSignInFailed:
    'El servicio de inicio de sesión de su plan de salud no completó el inicio de sesión. Inténtelo de nuevo.',
  idpTokenInvalid:
    'No se pudo verificar la respuesta del servicio de inicio de sesión de su plan de salud, por lo que no se inició su sesión. Inténtelo de nuevo.',
  idpNoClaimsData:
    'Inició sesión, pero no hay datos de reclamos del plan de salud vinculados a su cuenta, por lo que no se puede dar acceso a ninguna aplicación. Comuníquese con su plan de salud.',
  idpCancelled: 'Se canceló el inicio de sesión.',
  tryAgain: 'Intentar de nuevo',
  returnToApp: 'Regresar a la aplicación',
};

const catalogues: Record<Language, Catalogue> = { en, es };

export type MessageKey = keyof Catalogue;

/** A translator for one language: `t('consentTitle', { app })`. */
export function translator(lang: Language) {
  const catalogue = catalogues[lang];
  return (key: MessageKey, params: Record<string, string> = {}): string =>
    catalogue[key].replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? `{${name}}`);
}

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(en, value);
}

/** A date as people of that language write it, e.g. "December 22, 2027" / "22 de diciembre de 2027". */
export function formatDate(lang: Language, instant: number): string {
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-US' : 'en-US', {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(instant);
}
