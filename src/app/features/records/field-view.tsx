import { Anchor, Badge, Group, Image, Stack, Table, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import type { RecordNames } from '../../../shared/records/api';
import { listText, plainValue, type Field } from '../../../shared/records/define';
import { formatMuseumMinute, formatMuseumTime } from '../../../shared/rules/museum-time';
import { RichHtml } from '../../components/rich-html';
import { tRecords } from '../../lib/i18n/records';

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
      return fd.seconds ? formatMuseumTime(value as number) : formatMuseumMinute(value as number);
    case 'bool':
      return value ? tRecords.yes : tRecords.no;
    case 'status':
      return fd.options?.find((o) => o.value === value)?.label ?? String(value);
    case 'file':
    case 'image':
      return (value as number[]).map((id) => ctx.names.files?.[String(id)]?.attName ?? `#${id}`).join('、');
    case 'ref':
      return ctx.names.refs?.[fd.ref!.record]?.[String(value)] ?? `#${String(value)}`;
    case 'refs':
      return (value as number[])
        .map((id) => ctx.names.refs?.[fd.ref!.record]?.[String(id)] ?? `#${id}`)
        .join('、');
    case 'list':
      return listText(fd, value, (sub, v) => fieldText(sub, v, ctx));
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
  if ((fd.kind === 'file' || fd.kind === 'image') && Array.isArray(value) && value.length) {
    const files = (value as number[]).map((id) => ctx.names.files?.[String(id)]);
    if (fd.kind === 'image' && full)
      return (
        <Group gap="xs">
          {files.map(
            (a) =>
              a && (
                <Anchor key={a.attId} href={a.attPath} target="_blank" aria-label={a.attName}>
                  <Image src={a.attPath} alt={a.attName} w={96} h={96} fit="cover" radius="sm" />
                </Anchor>
              ),
          )}
        </Group>
      );
    // In a list cell or a card: the first image as a thumbnail (a carousel's banner, a cover),
    // with how many more there are.
    if (fd.kind === 'image' && files[0])
      return (
        <Group gap={4} wrap="nowrap" data-testid="record-thumb">
          <Image src={files[0].attPath} alt={files[0].attName} w={56} h={40} fit="cover" radius="sm" />
          {files.length > 1 && (
            <Text span size="xs" c="dimmed">
              +{files.length - 1}
            </Text>
          )}
        </Group>
      );
    return (
      <Stack gap={2}>
        {files.map(
          (a) =>
            a && (
              <Anchor
                key={a.attId}
                href={a.attPath}
                size="sm"
                aria-label={tRecords.downloadFile(a.attName)}
                onClick={(e) => e.stopPropagation()}
              >
                <Group gap={4} wrap="nowrap" component="span">
                  <IconPaperclip size={14} style={{ flex: 'none' }} />
                  <Text span size="sm" truncate>
                    {a.attName}
                  </Text>
                </Group>
              </Anchor>
            ),
        )}
      </Stack>
    );
  }
  if (fd.kind === 'list' && full && fd.sub) {
    const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
    if (!rows.length)
      return (
        <Text span c="dimmed" size="sm">
          {DASH}
        </Text>
      );
    const subs = Object.entries(fd.sub);
    return (
      <Table withTableBorder fz="sm" data-testid="record-list-rows">
        <Table.Thead>
          <Table.Tr>
            {subs.map(([k, sub]) => (
              <Table.Th key={k}>{sub.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i}>
              {subs.map(([k, sub]) => (
                <Table.Td key={k}>{fieldText(sub, r[k], ctx) || DASH}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  }
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
