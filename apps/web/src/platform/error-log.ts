import { isApiError } from './api/errors.ts';

/** Marker on every line the app logs for an uncaught failure (spec section 8: an error log). */
export const ERROR_LOG_MARKER = '[RingMES:uncaught]';

/**
 * Uncaught errors and unhandled rejections go to console.error with a marker. A rejected call
 * whose message the user has already seen (ApiError.shown) is not an error of the app: it is
 * noted at warning level only.
 */
export function installErrorLogging(): void {
  window.addEventListener('error', (event) => {
    console.error(ERROR_LOG_MARKER, event.message, event.error ?? '', `${event.filename}:${event.lineno}`);
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    if (isApiError(reason) && (reason.shown || reason.kind === 'aborted' || reason.kind === 'session')) {
      event.preventDefault();
      console.warn(ERROR_LOG_MARKER, 'request rejected (already shown to the user):', reason.message);
      return;
    }
    console.error(ERROR_LOG_MARKER, 'unhandled rejection', reason);
  });
}
