import { type ComponentProps, lazy, Suspense, useState } from 'react';

/*
 * The kit's dialogs with their code loaded when first opened: a list paints without the form
 * (every input kind, the line editor), the detail drawer and the Excel import (upload, steps,
 * progress), which together weigh more than the table.
 */
const FormModal = lazy(() => import('./resource-form.tsx').then((m) => ({ default: m.ResourceFormModal })));
const DetailDrawer = lazy(() =>
  import('./resource-detail.tsx').then((m) => ({ default: m.ResourceDetailDrawer })),
);
const Import = lazy(() => import('./import-modal.tsx').then((m) => ({ default: m.ImportModal })));

/** True from the first time `open` is: a dialog loaded on demand stays mounted, to animate its closing. */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/** `ResourceFormModal`, loaded when first opened. */
export function ResourceFormDialog(props: ComponentProps<typeof FormModal>) {
  const opened = useOpenedOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <FormModal {...props} />
    </Suspense>
  );
}

/** `ResourceDetailDrawer`, loaded when a record is first shown. */
export function ResourceDetailDialog(props: ComponentProps<typeof DetailDrawer>) {
  const opened = useOpenedOnce(props.id !== undefined);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <DetailDrawer {...props} />
    </Suspense>
  );
}

/** `ImportModal`, loaded when first opened. */
export function ImportDialog(props: ComponentProps<typeof Import>) {
  const opened = useOpenedOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Import {...props} />
    </Suspense>
  );
}
