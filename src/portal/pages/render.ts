import { pageRenderer } from '../../shared/pages.js';
import { translator } from './i18n.js';

/** Renders a developer-portal page in one language; every template gets `t` for its texts. */
export const renderPage = pageRenderer(new URL('./templates', import.meta.url), translator);
