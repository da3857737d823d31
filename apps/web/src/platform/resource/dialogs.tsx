import { type ComponentProps, type ComponentType, lazy, Suspense, useState } from 'react';

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

/** A dialog whose code loads the first time `isOpen` holds, then stays mounted. */
function onDemand<C extends ComponentType<any>>(Dialog: C, isOpen: (props: ComponentProps<C>) => boolean) {
  return function OnDemand(props: ComponentProps<C>) {
    const opened = useOpenedOnce(isOpen(props));
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}

/** `ResourceFormModal`, loaded when first opened. */
export const ResourceFormDialog = onDemand(FormModal, (p) => p.open);

/** `ResourceDetailDrawer`, loaded when a record is first shown. */
export const ResourceDetailDialog = onDemand(DetailDrawer, (p) => p.id !== undefined);

/** `ImportModal`, loaded when first opened. */
export const ImportDialog = onDemand(Import, (p) => p.open);
