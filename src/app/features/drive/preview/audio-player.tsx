import { ActionIcon, Alert, Button, Group, Modal, Slider, Stack, Text } from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import {
  IconArrowsShuffle,
  IconMusic,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconPlayerSkipBackFilled,
  IconPlayerSkipForwardFilled,
  IconRepeat,
  IconRepeatOnce,
  IconVolume,
  IconVolume3,
} from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { joinName } from '../../../../shared/drive/names';
import { tPreview } from '../../../lib/i18n/preview';
import { useDetail } from '../drive-data';
import { DeviceCopyNote } from './device-copy-note';
import { activeLine, parseLrc, plainLyrics } from './lrc';
import type { PreviewProps } from './types';
import { areaKeyOf, formatTime, ownsKeys, useWindowKeys, wrapIndex, usePaged } from './viewer-kit';
import classes from './audio-player.module.css';

/** Cycle modes (spec §4), switched in this order by one button. */
type Mode = 1 | 2 | 3;
const NEXT_MODE: Record<Mode, Mode> = { 1: 2, 2: 3, 3: 1 };
const MODE_ICON = { 1: IconRepeat, 2: IconRepeatOnce, 3: IconArrowsShuffle } as const;
/** Volume: ↑ ↓ move it by 0.1; the speaker icon toggles between silent and 0.5 (spec §9). */
const VOLUME_STEP = 0.1;
const UNMUTED = 0.5;
const VOLUME_KEY = 'gwy.preview.volume';
/** Lyrics start scrolling once the sung line is past this many lines (spec §4). */
const LYRICS_STILL_LINES = 3;

const clampVolume = (v: number) => Math.min(1, Math.max(0, Math.round(v * 10) / 10));

/** A random index of `n` other than `index` (the same one when it is alone). */
function randomOther(index: number, n: number): number {
  if (n <= 1) return index;
  const r = Math.floor(Math.random() * (n - 1));
  return r >= index ? r + 1 : r;
}

/**
 * 音乐播放 (spec §4 "Audio player"): plays the folder's songs with our own controls over a
 * hidden <audio>, so every label is Chinese and the keys are the spec's: Space plays or
 * pauses, ← → switch song (wrapping round), ↑ ↓ change the volume by 0.1, Escape closes. The
 * mode button cycles 列表循环 → 单曲循环 → 随机播放 and decides what follows a finished song.
 * Cover, artist, album and LRC lyrics come from file/detail (music details); the sung line is
 * highlighted and, once past the third line, kept in view.
 */
export default function AudioPlayer({ files, index: start, area, onClose }: PreviewProps) {
  const v = tPreview.viewers;
  const a = v.audio;
  const { n, index, setIndex, file, name, source } = usePaged(files, start, area);
  const src = source.src;
  // Through a share too: file/detail reads with the share's grant (tags only, no .lrc beside).
  const detail = useDetail({ area: areaKeyOf(area), areaQuery: area }, file.userFileId);
  // Until the server reads tags (or for files without any) there are no music details.
  const music = detail.data?.music ?? null;

  const audioRef = useRef<HTMLAudioElement>(null);
  const [mode, setMode] = useState<Mode>(1);
  const [playing, setPlaying] = useState(false);
  // Time and length belong to one source: a new song starts from zero without an effect.
  const [clock, setClock] = useState({ src, time: 0, length: 0 });
  const time = clock.src === src ? clock.time : 0;
  const length = (clock.src === src && clock.length) || music?.trackLength || 0;
  const [failed, setFailed] = useState<string | null>(null);
  const [volume, setVolume] = useLocalStorage<number>({
    key: VOLUME_KEY,
    defaultValue: UNMUTED,
    getInitialValueInEffect: false,
  });
  const narrow = useMediaQuery('(max-width: 600px)');

  useEffect(() => {
    if (audioRef.current) audioRef.current.volume = clampVolume(volume);
  }, [volume]);

  const audio = () => audioRef.current;
  const toggle = () => {
    const el = audio();
    if (!el) return;
    if (el.paused) void el.play().catch(() => undefined);
    else el.pause();
  };
  const restart = () => {
    const el = audio();
    if (!el) return;
    el.currentTime = 0;
    void el.play().catch(() => undefined);
  };
  /** Goes to song `i`; the same song again starts over (a list of one, a random pick). */
  const playAt = (i: number) => {
    if (i === index) restart();
    else setIndex(i);
  };
  const step = (by: number) => playAt(wrapIndex(index, by, n));
  const changeVolume = (to: number) => setVolume(clampVolume(to));
  const onEnded = () => {
    // 单曲循环 is the element's own loop, so an end only comes in the other two modes.
    if (mode === 3) playAt(randomOther(index, n));
    else step(1);
  };

  const close = () => onClose('cancel');
  useWindowKeys((e) => {
    if (e.key === 'Escape') {
      close();
      return true;
    }
    if (ownsKeys(e.target, e.key)) return false;
    switch (e.key) {
      case ' ':
        toggle();
        return true;
      case 'ArrowLeft':
      case 'ArrowRight':
        step(e.key === 'ArrowLeft' ? -1 : 1);
        return true;
      case 'ArrowUp':
      case 'ArrowDown':
        changeVolume(volume + (e.key === 'ArrowUp' ? VOLUME_STEP : -VOLUME_STEP));
        return true;
    }
    return false;
  });

  const lines = useMemo(() => parseLrc(music?.lyrics), [music?.lyrics]);
  const plain = useMemo(() => (lines.length ? [] : plainLyrics(music?.lyrics)), [lines, music?.lyrics]);
  const active = activeLine(lines, time);
  const lyricsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = lyricsRef.current;
    if (!box) return;
    const rows = box.querySelectorAll<HTMLElement>('[data-line]');
    // The first three lines are sung in place; after that the sung line stays third from the top.
    const top = active >= LYRICS_STILL_LINES ? rows[active - (LYRICS_STILL_LINES - 1)] : undefined;
    const first = rows[0];
    box.scrollTo({ top: top && first ? top.offsetTop - first.offsetTop : 0, behavior: 'smooth' });
  }, [active, lines]);

  const error = source.error ?? (src && failed === src ? a.unplayable : null);
  const ModeIcon = MODE_ICON[mode];
  const artist = music?.artist || a.unknown;
  const album = music?.album || a.unknown;

  return (
    <Modal
      opened
      onClose={close}
      closeOnEscape={false}
      size={560}
      fullScreen={narrow}
      title={a.dialog}
      classNames={{ body: classes.body }}
    >
      <Stack gap="sm" data-testid="audio-player">
        <Group wrap="nowrap" align="flex-start" gap="md">
          <div className={classes.cover}>
            {music?.albumImage ? (
              <img src={music.albumImage} alt={a.cover} data-testid="audio-cover" />
            ) : (
              <IconMusic size={44} stroke={1.4} aria-hidden />
            )}
          </div>
          <Stack gap={2} miw={0}>
            <Text fw={600} size="lg" truncate="end" data-testid="audio-title" title={name}>
              {music?.title || file.fileName}
            </Text>
            <Text size="sm" c="dimmed" truncate="end" data-testid="audio-artist">
              {a.artist}：{artist}
            </Text>
            <Text size="sm" c="dimmed" truncate="end" data-testid="audio-album">
              {a.album}：{album}
            </Text>
            <Text size="xs" c="dimmed">
              {v.counter(index + 1, n)}
            </Text>
            <DeviceCopyNote shown={source.fromDevice} />
          </Stack>
        </Group>

        {error && (
          <Alert color="red" variant="light" data-testid="audio-error">
            {error}
          </Alert>
        )}

        <div>
          <Slider
            aria-label={a.progress}
            min={0}
            max={Math.max(length, 0.1)}
            step={0.1}
            value={Math.min(time, length || time)}
            label={(x) => formatTime(x)}
            size="md"
            thumbSize={20}
            onChange={(x) => {
              const el = audio();
              if (el && Number.isFinite(el.duration)) el.currentTime = x;
              setClock((c) => ({ src, time: x, length: c.src === src ? c.length : 0 }));
            }}
          />
          <Group justify="space-between" mt={4}>
            <Text size="xs" c="dimmed" data-testid="audio-time">
              {formatTime(time)}
            </Text>
            <Text size="xs" c="dimmed">
              {formatTime(length)}
            </Text>
          </Group>
        </div>

        <Group justify="space-between" wrap="wrap" gap="xs">
          <Button
            variant="light"
            h={44}
            px="sm"
            leftSection={<ModeIcon size={20} />}
            aria-label={a.modeHint(a.modes[mode])}
            title={a.modeHint(a.modes[mode])}
            data-mode={mode}
            data-testid="audio-mode"
            onClick={() => setMode(NEXT_MODE[mode])}
          >
            {a.modes[mode]}
          </Button>
          <Group gap="xs" wrap="nowrap">
            <ActionIcon variant="subtle" size={44} aria-label={a.prev} onClick={() => step(-1)}>
              <IconPlayerSkipBackFilled size={22} />
            </ActionIcon>
            <ActionIcon
              variant="filled"
              size={52}
              radius="xl"
              aria-label={playing ? a.pause : a.play}
              data-testid="audio-play"
              onClick={toggle}
            >
              {playing ? <IconPlayerPauseFilled size={26} /> : <IconPlayerPlayFilled size={26} />}
            </ActionIcon>
            <ActionIcon variant="subtle" size={44} aria-label={a.next} onClick={() => step(1)}>
              <IconPlayerSkipForwardFilled size={22} />
            </ActionIcon>
          </Group>
          <Group gap={6} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              size={44}
              aria-label={volume > 0 ? a.mute : a.unmute}
              data-testid="audio-volume-toggle"
              onClick={() => changeVolume(volume > 0 ? 0 : UNMUTED)}
            >
              {volume > 0 ? <IconVolume size={22} /> : <IconVolume3 size={22} />}
            </ActionIcon>
            <Slider
              aria-label={a.volume}
              w={90}
              min={0}
              max={1}
              step={VOLUME_STEP}
              value={clampVolume(volume)}
              label={(x) => `${Math.round(x * 100)}%`}
              onChange={changeVolume}
              data-testid="audio-volume"
            />
          </Group>
        </Group>

        <div className={classes.lyrics} ref={lyricsRef} aria-label={a.lyrics} data-testid="audio-lyrics">
          {lines.length > 0 ? (
            lines.map((l, i) => (
              <p
                key={`${l.time}-${i}`}
                data-line={i}
                data-active={i === active || undefined}
                className={classes.line}
              >
                {l.text || '\u00a0'}
              </p>
            ))
          ) : plain.length > 0 ? (
            plain.map((l, i) => (
              <p key={i} className={classes.line}>
                {l || '\u00a0'}
              </p>
            ))
          ) : (
            <p className={classes.line}>{a.noLyrics}</p>
          )}
        </div>

        {n > 1 && (
          <div>
            <Text size="sm" fw={600} mb={4}>
              {a.playlist(n)}
            </Text>
            <div className={classes.playlist} data-testid="audio-playlist">
              {files.map((f, i) => (
                <button
                  key={f.userFileId}
                  type="button"
                  className={classes.track}
                  aria-current={i === index ? 'true' : undefined}
                  onClick={() => playAt(i)}
                >
                  <span className={classes.trackNo}>{i + 1}</span>
                  <span className={classes.trackName}>{joinName(f.fileName, f.extendName)}</span>
                </button>
              ))}
            </div>
          </div>
        )}
        <Text size="xs" c="dimmed" ta="center" visibleFrom="sm">
          {a.keysHint}
        </Text>

        {/* One element for every song: the volume and the page's autoplay permission stay with it. */}
        <audio
          ref={audioRef}
          src={src ?? undefined}
          autoPlay
          preload="auto"
          loop={mode === 2}
          data-testid="audio-element"
          // The element mounts with the dialog's transition, after this component's first
          // commit: each load sets the volume, the effect above follows later changes.
          onLoadStart={(e) => {
            e.currentTarget.volume = clampVolume(volume);
          }}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={onEnded}
          onTimeUpdate={(e) => {
            const time = e.currentTarget.currentTime;
            setClock((c) => ({ src, time, length: c.src === src ? c.length : 0 }));
          }}
          onDurationChange={(e) => {
            const d = e.currentTarget.duration;
            const length = Number.isFinite(d) ? d : 0;
            setClock((c) => ({ src, time: c.src === src ? c.time : 0, length }));
          }}
          onError={() => {
            setFailed(src);
            setPlaying(false);
          }}
        />
      </Stack>
    </Modal>
  );
}
