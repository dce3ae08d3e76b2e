import { Button, Group, Text } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import { useState } from 'react';
import type { IsbnAnswer } from '../../../shared/api/books-stats';
import { museum, OfflineError } from '../../lib/api';
import { tBooksIsbn } from '../../lib/i18n/books-isbn';

/**
 * 按ISBN填充, under the ISBN field of the catalogue's form (a records form addon: pass
 * `formAddons={{ isbn: IsbnFillButton }}` to the page's RecordListPage). It asks
 * `bsBookInfo/isbn` what the catalogue already holds under that ISBN (the newest row) and fills
 * the fields that are still empty — never what the person typed — then says which it filled.
 * Shown for books only (类别 图书); periodicals carry an ISSN. It needs the network and says so.
 */

const I = tBooksIsbn;

/** The records form's addon props (features/records FieldAddonProps), as far as this needs them. */
interface AddonProps {
  def: { fields: Readonly<Record<string, { label: string }>> };
  values: Readonly<Record<string, unknown>>;
  fixed: Readonly<Record<string, unknown>> | undefined;
  fillEmpty: (patch: Record<string, unknown>) => string[];
}

export function IsbnFillButton({ def, values, fixed, fillEmpty }: AddonProps) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; color: string } | null>(null);
  const type = String(fixed?.type ?? values.type ?? '');
  if (type !== '1') return null;
  const isbn = String(values.isbn ?? '').trim();

  async function fill() {
    setBusy(true);
    setNote(null);
    try {
      const a = await museum.get<IsbnAnswer>('/book/bsBookInfo/isbn', { query: { isbn }, silent: true });
      if (!a.found || !a.fill) {
        setNote({ text: a.message, color: 'yellow.8' });
        return;
      }
      const filled = fillEmpty({ ...a.fill });
      setNote(
        filled.length
          ? {
              text: I.filled(
                a.fill.title,
                filled.map((k) => def.fields[k]?.label ?? k),
              ),
              color: 'teal.8',
            }
          : { text: I.nothingEmpty, color: 'dimmed' },
      );
    } catch (err) {
      setNote({
        text: err instanceof OfflineError ? I.offline : err instanceof Error ? err.message : String(err),
        color: 'red.7',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Button
        size="xs"
        variant="light"
        leftSection={<IconBook2 size={14} />}
        loading={busy}
        disabled={!isbn}
        onClick={() => void fill()}
        aria-label={I.buttonLabel}
        data-testid="isbn-fill"
        style={{ flex: 'none' }}
      >
        {I.button}
      </Button>
      <Text
        size="xs"
        c={note?.color ?? 'dimmed'}
        role="status"
        aria-live="polite"
        data-testid="isbn-fill-note"
      >
        {note?.text ?? (isbn ? '' : I.hint)}
      </Text>
    </Group>
  );
}
