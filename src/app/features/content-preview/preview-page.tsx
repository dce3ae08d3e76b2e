import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Group,
  Image,
  Loader,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { MUSEUM_PREFIX } from '../../../shared/api/codes';
import {
  CONTENT_PUBLIC_BASE,
  type PublicCarouselItem,
  type PublicExhibitionItem,
  type PublicHomeAnswer,
  type PublicShowroomItem,
} from '../../../shared/api/content-public';
import { tContentPreview } from '../../lib/i18n/content-preview';
import classes from './preview.module.css';

const T = tContentPreview;
type Lang = 'zh' | 'en';

/**
 * The public home as a visitor's phone shows it, read from the public API with no session
 * (`cache: 'no-cache'`: the browser revalidates with the ETag every time, so an editor who has
 * just published or taken something down sees it at once, and an unchanged answer costs a 304).
 */
async function fetchHome(lang: Lang, signal: AbortSignal): Promise<PublicHomeAnswer> {
  const res = await fetch(`${MUSEUM_PREFIX}${CONTENT_PUBLIC_BASE}/home?lang=${lang}`, {
    cache: 'no-cache',
    credentials: 'omit',
    signal,
  });
  const json = (await res.json().catch(() => null)) as {
    success?: boolean;
    message?: string;
    result?: PublicHomeAnswer;
  } | null;
  if (!res.ok || !json?.success || !json.result) throw new Error(json?.message || T.loadFailed);
  return json.result;
}

const langOfUrl = (): Lang =>
  new URLSearchParams(window.location.search).get('lang') === 'en' ? 'en' : 'zh';

/**
 * 小程序首页预览 (/content-preview): a visitor-eye view of the mini-program home at phone size,
 * outside the staff layout and without sign-in (it shows only what the public API answers):
 * the carousel in its order, the exhibitions on now, and the guide's showrooms with their
 * audio. 中文 / English switches the language the API is asked for; English content is shown
 * as stored, the page's own words stay Chinese. Staff open it from 预览 on the content pages
 * (ContentPreviewLink).
 */
export function ContentPreviewPage() {
  const [lang, setLang] = useState<Lang>(langOfUrl);
  const home = useQuery({
    queryKey: ['content-preview', lang],
    queryFn: ({ signal }) => fetchHome(lang, signal),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

  const choose = (v: string) => {
    const next: Lang = v === 'en' ? 'en' : 'zh';
    setLang(next);
    const url = new URL(window.location.href);
    url.searchParams.set('lang', next);
    window.history.replaceState(window.history.state, '', url);
  };

  return (
    <Box className={classes.page}>
      <Box className={classes.phone} lang={lang === 'en' ? 'en' : 'zh-CN'}>
        <Stack gap="md" p="md">
          <Group justify="space-between" wrap="nowrap">
            <Title order={1} size="h4">
              {T.title}
            </Title>
            <SegmentedControl
              size="xs"
              aria-label={T.langLabel}
              value={lang}
              onChange={choose}
              data={[
                { value: 'zh', label: T.langZh },
                { value: 'en', label: T.langEn },
              ]}
            />
          </Group>
          <Text size="xs" c="dimmed">
            {T.note}
          </Text>
          {home.isPending ? (
            <Center mih={200}>
              <Loader />
            </Center>
          ) : home.isError ? (
            <Alert color="red" icon={<IconAlertCircle />}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{home.error.message || T.loadFailed}</Text>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconRefresh size={14} />}
                  onClick={() => void home.refetch()}
                >
                  {T.refresh}
                </Button>
              </Stack>
            </Alert>
          ) : (
            <>
              <CarouselStrip items={home.data.carousel} lang={lang} />
              <Exhibitions items={home.data.exhibitions} />
              <Guides items={home.data.showrooms} />
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {T.updatedAt(new Date(home.dataUpdatedAt).toLocaleTimeString('zh-CN', { hour12: false }))}
                </Text>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  leftSection={<IconRefresh size={12} />}
                  loading={home.isFetching}
                  onClick={() => void home.refetch()}
                >
                  {T.refresh}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </Box>
    </Box>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Box>
  );
}

/** The carousel, in the API's order: a row of slides that scroll and snap sideways. */
function CarouselStrip({ items, lang }: { items: PublicCarouselItem[]; lang: Lang }) {
  return (
    <Section title={T.carousel(lang)}>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {T.noCarousel}
        </Text>
      ) : (
        <ol className={classes.strip}>
          {items.map((c, i) => (
            <li key={c.id} className={classes.slide} aria-label={T.slide(i + 1, items.length)}>
              <span className={classes.counter} aria-hidden>
                {T.counter(i + 1, items.length)}
              </span>
              {c.images[0] ? (
                <img className={classes.slideImage} src={c.images[0].url} alt={c.title} />
              ) : null}
              <Text size="sm" fw={500} className={classes.slideTitle} data-testid="carousel-title">
                {c.title}
              </Text>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function Exhibitions({ items }: { items: PublicExhibitionItem[] }) {
  return (
    <Section title={T.exhibitions}>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {T.noExhibitions}
        </Text>
      ) : (
        <Stack gap="sm">
          {items.map((e) => (
            <Card key={e.id} withBorder padding="sm" radius="md" data-testid="exhibition-card">
              {e.cover[0] ? (
                <Card.Section>
                  <Image src={e.cover[0].url} alt="" h={140} fit="cover" />
                </Card.Section>
              ) : null}
              <Group justify="space-between" mt="xs" wrap="nowrap" align="flex-start">
                <Text fw={600}>{e.title}</Text>
                <Badge variant="light" color="green">
                  {e.exhTypeLabel}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                {e.endDate
                  ? T.dates(e.startDate, e.endDate)
                  : `${T.dates(e.startDate, null)} · ${T.permanent}`}
              </Text>
              {e.summary ? (
                <Text size="sm" mt={4} lineClamp={3}>
                  {e.summary}
                </Text>
              ) : null}
            </Card>
          ))}
        </Stack>
      )}
    </Section>
  );
}

function Guides({ items }: { items: PublicShowroomItem[] }) {
  return (
    <Section title={T.guides}>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {T.noGuides}
        </Text>
      ) : (
        <Stack gap="sm">
          {items.map((g) => {
            const audio = g.audioId?.[0];
            return (
              <Card key={g.id} withBorder padding="sm" radius="md" data-testid="guide-card">
                <Group wrap="nowrap" align="flex-start">
                  {g.cover[0] ? (
                    <Image src={g.cover[0].url} alt="" w={72} h={72} radius="sm" fit="cover" />
                  ) : null}
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600}>{g.title}</Text>
                    {g.hall ? (
                      <Text size="xs" c="dimmed">
                        {[g.hall.floor, g.hall.name, g.hall.hallNo].filter(Boolean).join(' · ')}
                      </Text>
                    ) : null}
                  </Stack>
                </Group>
                {audio ? (
                  <Box mt="xs">
                    <Text size="xs" c="dimmed">
                      {T.audio}
                      {g.audioSeconds ? ` · ${T.seconds(g.audioSeconds)}` : ''}
                    </Text>
                    {/* Seeking works: the media call answers Range (206). */}
                    <audio
                      className={classes.audio}
                      controls
                      preload="none"
                      src={audio.url}
                      aria-label={`${T.audio}：${g.title}`}
                    />
                  </Box>
                ) : (
                  <Text size="xs" c="dimmed" mt="xs">
                    {T.noAudio}
                  </Text>
                )}
              </Card>
            );
          })}
        </Stack>
      )}
    </Section>
  );
}
