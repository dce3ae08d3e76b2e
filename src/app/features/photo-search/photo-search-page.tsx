import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  Loader,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconPhotoSearch, IconUpload } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  PHOTO_QUERY_MAX,
  PHOTO_SOURCE_LABEL,
  PHOTO_SOURCES,
  type PhotoHit,
  type PhotoResult,
  type PhotoSource,
} from '../../../shared/api/photo';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { museum, errorToast } from '../../lib/api';
import { tPhotoSearch } from '../../lib/i18n/photo-search';

const T = tPhotoSearch;
const AREA = { hd: { isFmt: 2 }, res: { fileType: 9 } } as const;
const AREA_NAME = { hd: '高清图片', res: '其他资源' } as const;

/** The small picture of a hit: a library file's thumbnail, or the record's image. */
export function hitImageUrl(hit: PhotoHit, min = true): string {
  // A record's image as its readers see it (the collection's 1280 px preview; originals need an extract).
  if (hit.attachmentId !== null)
    return `/singleMuseum/bsDigitalassetsInfo/preview?attachmentId=${hit.attachmentId}`;
  const area = AREA[hit.source === 'res' ? 'res' : 'hd'];
  const p = new URLSearchParams({ userFileId: String(hit.userFileId) });
  for (const [k, v] of Object.entries(area)) p.set(k, String(v));
  if (min) p.set('isMin', '1');
  return `/wangpan/filetransfer/preview?${p.toString()}`;
}

/** The first picture among a drop's or a paste's files, if any. */
function pictureOf(files: FileList | null | undefined): File | null {
  for (const f of Array.from(files ?? [])) if (f.type.startsWith('image/') || f.type === '') return f;
  return null;
}

/**
 * 以图搜图 (/photo/search): a drop zone (drag a photo, pick one, or paste one) that searches the
 * museum's images by picture, and a form that searches them by name, keywords, the collection's
 * fields and the date taken. Results are thumbnails, ranked, with their similarity; a
 * collection image opens its record (`renderRecord`, composed by the route), a library image
 * opens a larger preview. Tablet first: the grid is two columns at 768 px and four at 1024.
 */
export function PhotoSearchPage({
  renderRecord,
}: {
  /** The record's detail drawer for `id` (null: closed). */
  renderRecord: (id: number | null, onClose: () => void) => ReactNode;
}) {
  const [source, setSource] = useState<PhotoSource>('all');
  const [keyword, setKeyword] = useState('');
  const [takenFrom, setTakenFrom] = useState('');
  const [takenTo, setTakenTo] = useState('');
  const [query, setQuery] = useState<{ file: File; url: string } | null>(null);
  const [result, setResult] = useState<{ byImage: boolean; data: PhotoResult } | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [recordId, setRecordId] = useState<number | null>(null);
  const [preview, setPreview] = useState<PhotoHit | null>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => () => void (query && URL.revokeObjectURL(query.url)), [query]);

  async function searchImage(file: File, src = source) {
    if (file.size > PHOTO_QUERY_MAX) return errorToast(T.tooBig);
    if (file.size === 0) return errorToast(T.notImage);
    setQuery({ file, url: URL.createObjectURL(file) });
    setBusy(true);
    try {
      const data = await museum.post<PhotoResult>('/photo/searchByImage', file, {
        query: { source: src },
        timeoutMs: 60_000,
      });
      setResult({ byImage: true, data });
    } catch {
      /* the client showed the reason */
    } finally {
      setBusy(false);
    }
  }

  async function searchText(src = source) {
    setQuery(null);
    setBusy(true);
    try {
      const data = await museum.get<PhotoResult>('/photo/search', {
        query: { keyword: keyword.trim() || undefined, takenFrom, takenTo, source: src, pageCount: 48 },
      });
      setResult({ byImage: false, data });
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  }

  // A picture pasted anywhere on the page searches at once (a screenshot, a copied photo).
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA)$/.test(target.tagName)) return;
      const file = pictureOf(e.clipboardData?.files);
      if (file) {
        e.preventDefault();
        void searchImage(file);
      }
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  });

  function changeSource(v: string) {
    const next = v as PhotoSource;
    setSource(next);
    if (query) void searchImage(query.file, next);
    else if (result) void searchText(next);
  }

  const list = result?.data.list ?? [];
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }}>
      <Group gap="xs">
        <IconPhotoSearch size={24} />
        <Title order={3}>{T.title}</Title>
      </Group>
      <Text c="dimmed" size="sm">
        {T.intro}
      </Text>

      <SegmentedControl
        aria-label={T.source}
        value={source}
        onChange={changeSource}
        data={PHOTO_SOURCES.map((s) => ({ value: s, label: PHOTO_SOURCE_LABEL[s] }))}
        style={{ alignSelf: 'flex-start' }}
      />

      <Card
        withBorder
        radius="lg"
        p="lg"
        data-testid="photo-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const file = pictureOf(e.dataTransfer.files);
          if (file) void searchImage(file);
          else errorToast(T.notImage);
        }}
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: dragging ? 'var(--mantine-color-blue-5)' : undefined,
          background: dragging ? 'var(--mantine-color-blue-0)' : undefined,
        }}
      >
        <Group wrap="nowrap" gap="lg">
          {query ? (
            <Image src={query.url} alt={T.query} w={120} h={120} fit="contain" radius="md" />
          ) : (
            <IconUpload size={48} stroke={1.5} color="var(--mantine-color-gray-6)" />
          )}
          <Stack gap={6} style={{ flex: 1 }}>
            <Text fw={600}>{T.dropTitle}</Text>
            <Text size="sm" c="dimmed">
              {T.dropHint}
            </Text>
            <Group gap="sm">
              <Button
                size="md"
                variant="light"
                onClick={() => input.current?.click()}
                loading={busy && !!query}
              >
                {T.pick}
              </Button>
              {query && (
                <Button size="md" variant="subtle" color="gray" onClick={() => setQuery(null)}>
                  {T.clear}
                </Button>
              )}
            </Group>
          </Stack>
        </Group>
        <input
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          hidden
          data-testid="photo-file"
          onChange={(e) => {
            const file = pictureOf(e.currentTarget.files);
            e.currentTarget.value = '';
            if (file) void searchImage(file);
          }}
        />
      </Card>

      <form
        onSubmit={(e) => {
          e.preventDefault();
          void searchText();
        }}
      >
        <Group align="flex-end" gap="sm">
          <TextInput
            label={T.keyword}
            placeholder={T.keywordPlaceholder}
            value={keyword}
            onChange={(e) => setKeyword(e.currentTarget.value)}
            maxLength={100}
            size="md"
            style={{ flex: '1 1 260px' }}
          />
          <TextInput
            type="date"
            label={T.takenFrom}
            value={takenFrom}
            onChange={(e) => setTakenFrom(e.currentTarget.value)}
            size="md"
          />
          <TextInput
            type="date"
            label={T.takenTo}
            value={takenTo}
            onChange={(e) => setTakenTo(e.currentTarget.value)}
            size="md"
          />
          <Button type="submit" size="md" loading={busy && !query}>
            {T.search}
          </Button>
        </Group>
      </form>

      {busy && query ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{T.searching}</Text>
        </Group>
      ) : result ? (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" data-testid="photo-summary">
            {list.length === 0
              ? result.byImage
                ? T.noSimilar
                : T.noResults
              : result.byImage
                ? T.similarResults(list.length)
                : T.results(result.data.total)}
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="md">
            {list.map((hit) => (
              <HitCard
                key={`${hit.source}-${hit.attachmentId ?? hit.userFileId}`}
                hit={hit}
                onOpen={() => (hit.record ? setRecordId(hit.record.id) : setPreview(hit))}
              />
            ))}
          </SimpleGrid>
        </Stack>
      ) : null}

      {renderRecord(recordId, () => setRecordId(null))}
      <Modal
        opened={preview !== null}
        onClose={() => setPreview(null)}
        title={
          preview
            ? `${preview.fileName}${preview.extendName ? `.${preview.extendName}` : ''}`
            : T.previewTitle
        }
        size="xl"
        closeOnClickOutside={false}
        closeButtonProps={{ 'aria-label': T.closePreview }}
      >
        {preview && (
          <Stack gap="sm">
            <Image src={hitImageUrl(preview, false)} alt={preview.fileName} fit="contain" mah="70vh" />
            {preview.source !== 'collection' && (
              <Text size="sm" c="dimmed">
                {T.inFolder(AREA_NAME[preview.source], preview.filePath)}{' '}
                <Anchor
                  href={`/resources/${preview.source === 'hd' ? 'hd-picture-management?isFmt=2' : 'other-resource?fileType=9'}&filePath=${encodeURIComponent(preview.filePath)}`}
                >
                  {T.more}
                </Anchor>
              </Text>
            )}
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

function HitCard({ hit, onOpen }: { hit: PhotoHit; onOpen: () => void }) {
  const name = hit.record ? `${hit.record.code} ${hit.record.name}` : hit.fileName;
  return (
    <UnstyledButton
      onClick={onOpen}
      data-testid="photo-hit"
      aria-label={`${hit.record ? T.openRecord : T.openFile} ${name}`}
    >
      <Card withBorder radius="md" p="xs" h="100%">
        <Card.Section>
          <Image src={hitImageUrl(hit)} alt={name} h={160} fit="cover" fallbackSrc="/icons/icon-192.png" />
        </Card.Section>
        <Stack gap={4} mt="xs">
          <Text size="sm" fw={600} lineClamp={1}>
            {name}
          </Text>
          <Group gap={4}>
            {hit.similarity !== null && (
              <Badge color={hit.similarity >= 90 ? 'green' : 'yellow'} variant="light">
                {T.similarity(hit.similarity)}
              </Badge>
            )}
            <Badge color="gray" variant="outline">
              {PHOTO_SOURCE_LABEL[hit.source]}
            </Badge>
          </Group>
          {hit.takenAt !== null && (
            <Text size="xs" c="dimmed">
              {T.takenAt(formatMuseumMinute(hit.takenAt).slice(0, 10))}
            </Text>
          )}
          {hit.tags.length > 0 && (
            <Text size="xs" c="dimmed" lineClamp={1}>
              {hit.tags.join('、')}
            </Text>
          )}
        </Stack>
      </Card>
    </UnstyledButton>
  );
}
