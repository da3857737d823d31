import type {
  DatePicker as AntDatePicker,
  TreeSelect as AntTreeSelect,
  DatePickerProps,
  InputNumberProps,
} from 'antd';
import { Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { type ComponentProps, type ComponentType, type CSSProperties, lazy, Suspense } from 'react';

/*
 * Inputs whose code loads when a form or a search bar first shows one: the date picker is the
 * heaviest Ant Design input, and most lists have no date, number or tree filter. While the
 * chunk arrives a disabled text box of the same size stands in, so nothing shifts.
 */
// The picker is generic over its value: here, one Dayjs date.
const LazyDatePicker = lazy(() =>
  import('./date-picker.ts').then((m) => ({
    default: m.DatePicker as ComponentType<DatePickerProps<Dayjs, false>>,
  })),
);
const LazyRangePicker = lazy(() =>
  import('./date-picker.ts').then((m) => ({ default: m.DatePicker.RangePicker })),
);
const LazyTreeSelect = lazy(() => import('./tree-select.ts').then((m) => ({ default: m.TreeSelect })));
const LazyInputNumber = lazy(() => import('./input-number.ts').then((m) => ({ default: m.InputNumber })));

function Placeholder({ style, placeholder }: { style?: CSSProperties; placeholder?: string }) {
  return <Input disabled style={style} placeholder={placeholder} />;
}

type RangePickerProps = ComponentProps<typeof AntDatePicker.RangePicker>;

/** Ant Design's `DatePicker` (one date), loaded on first use. */
export function DateInput(props: DatePickerProps<Dayjs, false>) {
  return (
    <Suspense fallback={<Placeholder style={props.style} placeholder={props.placeholder} />}>
      <LazyDatePicker {...props} />
    </Suspense>
  );
}

/** Ant Design's `DatePicker.RangePicker`, loaded on first use. */
export function DateRangeInput(props: RangePickerProps) {
  const placeholder = Array.isArray(props.placeholder) ? props.placeholder.join(' ~ ') : undefined;
  return (
    <Suspense fallback={<Placeholder style={props.style} placeholder={placeholder} />}>
      <LazyRangePicker {...props} />
    </Suspense>
  );
}

/** Ant Design's `InputNumber`, loaded on first use. */
export function NumberInput(props: InputNumberProps) {
  return (
    <Suspense fallback={<Placeholder style={props.style} placeholder={props.placeholder} />}>
      <LazyInputNumber {...props} />
    </Suspense>
  );
}

/** Ant Design's `TreeSelect`, loaded on first use. */
export function TreeSelectInput(props: ComponentProps<typeof AntTreeSelect>) {
  return (
    <Suspense fallback={<Placeholder style={props.style} placeholder={props.placeholder as string} />}>
      <LazyTreeSelect {...props} />
    </Suspense>
  );
}
