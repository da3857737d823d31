import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import { useEffect, useRef, useState } from 'react';

type JsonValue = string | number | boolean | null;
interface Pair {
  key: string;
  value: string;
}

function toPairs(value: Record<string, JsonValue> | null | undefined): Pair[] {
  return Object.entries(value ?? {}).map(([key, v]) => ({ key, value: v === null ? '' : String(v) }));
}

/** Numbers typed as numbers stay numbers ("20" → 20), everything else is text. */
function toObject(pairs: Pair[]): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const p of pairs) {
    const key = p.key.trim();
    if (!key) continue;
    const v = p.value.trim();
    out[key] = v !== '' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }
  return out;
}

/** A small key/value editor for JSON fields (attribute values): one row per key. */
export function KeyValueEditor({
  id,
  value,
  onChange,
  disabled,
}: {
  id?: string;
  value?: Record<string, JsonValue> | null;
  onChange?: (value: Record<string, JsonValue>) => void;
  disabled?: boolean;
}) {
  const [pairs, setPairs] = useState<Pair[]>(() => toPairs(value));
  const sent = useRef(JSON.stringify(value ?? {}));

  // A new value from outside (record loaded, form reset) replaces the rows.
  useEffect(() => {
    const text = JSON.stringify(value ?? {});
    if (text !== sent.current) {
      sent.current = text;
      setPairs(toPairs(value));
    }
  }, [value]);

  const update = (next: Pair[]) => {
    setPairs(next);
    const obj = toObject(next);
    sent.current = JSON.stringify(obj);
    onChange?.(obj);
  };

  return (
    <div className="rk-kv" id={id}>
      {pairs.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while keys are typed
        <div className="rk-kv-row" key={i}>
          <Input
            placeholder="属性名"
            value={p.key}
            disabled={disabled}
            maxLength={60}
            onChange={(e) => update(pairs.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))}
          />
          <Input
            placeholder="属性值"
            value={p.value}
            disabled={disabled}
            maxLength={500}
            onChange={(e) => update(pairs.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
          />
          <Button
            type="text"
            icon={<DeleteOutlined />}
            disabled={disabled}
            aria-label="删除属性"
            onClick={() => update(pairs.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button
        type="dashed"
        size="small"
        icon={<PlusOutlined />}
        disabled={disabled}
        onClick={() => setPairs([...pairs, { key: '', value: '' }])}
      >
        添加属性
      </Button>
    </div>
  );
}
