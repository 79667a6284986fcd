import { defaultErrors, type ErrorRenderer } from '../shared/error-renderer.js';

/**
 * How the price lookup renders the errors the HTTP kernel raises: `{"status_code","message"}`, the kernel's
 * plain shape (its own 404 for an unknown path is `{"message"}`, in app.ts, as the deployed API's gateway
 * answers).
 */
export const priceLookupErrors: ErrorRenderer = defaultErrors;
