import { Modal } from 'antd';
import { clearSession } from '../platform/session.ts';

/**
 * Codes 50008/50012/50014 (spec section 8): the "Confirm logout" dialog. Re-Login resets the
 * token and reloads the page (the guard then asks for a login); Cancel stays on the page.
 * Loaded on demand so the dialog code stays out of the first load.
 */
export function showReloginDialog(): Promise<void> {
  return new Promise((resolve) => {
    Modal.confirm({
      title: 'Confirm logout',
      content: 'You have been logged out, you can cancel to stay on this page, or log in again',
      okText: 'Re-Login',
      cancelText: 'Cancel',
      type: 'warning',
      onOk: () => {
        clearSession();
        window.location.reload();
      },
      afterClose: () => resolve(),
    });
  });
}
