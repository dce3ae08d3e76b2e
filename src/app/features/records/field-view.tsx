import { Badge, Text } from '@mantine/core';
import type { RecordNames } from '../../../shared/records/api';
import { plainValue, type Field } from '../../../shared/records/define';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { RichHtml } from '../../components/rich-html';
import { t } from '../../lib/i18n';

/**
 * How a record's value reads, by its field's kind: dictionary values by their words, people and
 * departments by name (the list's `names`), statuses as coloured badges, moments in museum time.
 */

export interface ViewContext {
  names: RecordNames;
  /** A dictionary item's words. */
  dictLabel: (dict: string, value: unknown) => string;
}

const DASH = '—';

export function fieldText(fd: Field, value: unknown, ctx: ViewContext): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value) && !value.length) return '';
  switch (fd.kind) {
    case 'dict':
      return ctx.dictLabel(fd.dict!, value);
    case 'user':
      return ctx.names.users[String(value)] ?? `#${String(value)}`;
    case 'users':
      return (value as number[]).map((id) => ctx.names.users[String(id)] ?? `#${id}`).join('、');
    case 'dept':
      return ctx.names.depts[String(value)] ?? `#${String(value)}`;
    case 'datetime':
      return formatMuseumMinute(value as number);
    case 'bool':
      return value ? t.records.yes : t.records.no;
    case 'rich':
      return String(value)
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    default:
      return plainValue(fd, value);
  }
}

/** A value in a cell, a card or the detail: a badge for a status, the rich text itself in the detail. */
export function FieldView({
  fd,
  value,
  ctx,
  full,
}: {
  fd: Field;
  value: unknown;
  ctx: ViewContext;
  /** In the detail: rich text as rich text, long text whole. */
  full?: boolean;
}) {
  if (fd.kind === 'status') {
    const o = fd.options?.find((x) => x.value === value);
    return (
      <Badge variant="light" color={o?.color ?? 'gray'} radius="sm">
        {o?.label ?? String(value ?? '')}
      </Badge>
    );
  }
  if (fd.kind === 'rich' && full) return <RichHtml html={String(value ?? '')} />;
  const text = fieldText(fd, value, ctx);
  if (!text)
    return (
      <Text span c="dimmed" size="sm">
        {DASH}
      </Text>
    );
  return (
    <Text
      span
      size="sm"
      style={full ? { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } : undefined}
      lineClamp={full ? undefined : 2}
    >
      {text}
    </Text>
  );
}
