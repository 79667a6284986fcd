// The page languages are the kernel's (the developer portal speaks them too).
export { asLanguage, pickLanguage, type Language } from '../../shared/language.js';
