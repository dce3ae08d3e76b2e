import { ActionIcon, Anchor, Button, Group, Menu, Modal, Slider, Stack, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconCheck,
  IconDownload,
  IconLayoutSidebarRightCollapse,
  IconLayoutSidebarRightExpand,
  IconMaximize,
  IconMinimize,
  IconMovie,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatSize } from '../../../../shared/drive/file-types';
import { joinName } from '../../../../shared/drive/names';
import { tPreview } from '../../../lib/i18n/preview';
import { downloadUrl } from '../drive-data';
import { DeviceCopyNote } from './device-copy-note';
import { posterWanted, storePosterIfMissing } from './poster';
import type { PreviewProps } from './types';
import { formatTime, usePaged } from './viewer-kit';
import classes from './video-preview.module.css';

/** Playback speeds of the speed menu (spec §4). */
export const SPEEDS = [0.5, 1, 1.5, 2] as const;
/** The spec's narrow threshold: at this window width or less the playlist starts folded. */
const NARROW = 768;

type FullscreenVideo = HTMLVideoElement & { webkitEnterFullscreen?: () => void };

/**
 * 视频预览 (spec §4 "Video preview"): the file's name with its extension and size, a download
 * link that opens in a new tab, the 播放列表 fold button (folded from the start on windows of
 * 768 px or less) and a 16:9 player with our own Chinese controls over a native <video>:
 * play/pause, progress, time, speeds 0.5–2 and full screen. Nothing plays, mutes or loops by
 * itself; choosing another video pauses, rewinds, loads and plays it. A file the browser cannot
 * play says 此视频暂无法播放，请稍后再试. The first play of an mp4 without a thumbnail stores a
 * poster frame for the list (poster.ts), when the person may change the file.
 */
export default function VideoPreview({ files, index: start, area, editable, onClose }: PreviewProps) {
  const v = tPreview.viewers;
  const vv = v.video;
  const { index, setIndex, file, name, source } = usePaged(files, start, area);
  const src = source.src;

  const [listOpen, setListOpen] = useState(() => window.innerWidth > NARROW);
  const sideBySide = useMediaQuery(`(min-width: ${NARROW + 1}px)`, window.innerWidth > NARROW);
  const phone = useMediaQuery('(max-width: 600px)', window.innerWidth <= 600);

  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  /** Set by a switch of video: play once the new one has loaded. */
  const playOnLoad = useRef(false);
  const [playing, setPlaying] = useState(false);
  const [clock, setClock] = useState({ src, time: 0, length: 0 });
  const time = clock.src === src ? clock.time : 0;
  const length = clock.src === src ? clock.length : 0;
  const [rate, setRate] = useState<number>(1);
  const [failed, setFailed] = useState<string | null>(null);
  const [fullscreen, setFullscreen] = useState(false);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frameRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const video = () => videoRef.current;
  const toggle = () => {
    const el = video();
    if (!el) return;
    if (el.paused) void el.play().catch(() => undefined);
    else el.pause();
  };
  const select = (i: number) => {
    if (i === index) return;
    const el = video();
    if (el) {
      el.pause();
      el.currentTime = 0;
    }
    playOnLoad.current = true;
    setIndex(i);
  };
  const chooseRate = (r: number) => {
    setRate(r);
    const el = video();
    if (el) {
      // A new source starts at defaultPlaybackRate: keep the chosen speed across videos.
      el.defaultPlaybackRate = r;
      el.playbackRate = r;
    }
  };
  const toggleFullscreen = () => {
    if (document.fullscreenElement) {
      void document.exitFullscreen().catch(() => undefined);
      return;
    }
    const frame = frameRef.current;
    if (frame?.requestFullscreen) void frame.requestFullscreen().catch(() => undefined);
    // iPhone Safari has no element full screen, only the video's own.
    else (video() as FullscreenVideo | null)?.webkitEnterFullscreen?.();
  };
  const close = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    onClose('cancel');
  };

  const error = source.error ?? (src && failed === src ? vv.unplayable : null);

  const playlist = (
    <div
      className={sideBySide ? classes.listSide : classes.listBelow}
      aria-label={vv.playlist}
      data-testid="video-playlist"
    >
      {files.map((f, i) => (
        <button
          key={f.userFileId}
          type="button"
          className={classes.item}
          aria-current={i === index ? 'true' : undefined}
          onClick={() => select(i)}
        >
          <IconMovie size={18} className={classes.itemIcon} aria-hidden />
          <span className={classes.itemName}>{joinName(f.fileName, f.extendName)}</span>
          <span className={classes.itemSize}>{formatSize(f.fileSize)}</span>
        </button>
      ))}
    </div>
  );

  return (
    <Modal
      opened
      onClose={close}
      size={1100}
      fullScreen={phone}
      classNames={{ title: classes.title }}
      title={
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0} miw={0} style={{ flex: 1 }}>
            <Text fw={600} truncate="end" title={name} data-testid="video-name">
              {name}
            </Text>
            <Group gap="sm" wrap="nowrap">
              <Text size="sm" c="dimmed" data-testid="video-size">
                {formatSize(file.fileSize)}
              </Text>
              <DeviceCopyNote shown={source.fromDevice} />
              <Anchor
                href={downloadUrl(area, [file.userFileId])}
                target="_blank"
                rel="noopener"
                size="sm"
                title={vv.downloadHint}
                data-testid="video-download"
                className={classes.download}
              >
                <IconDownload size={16} aria-hidden />
                {v.download}
              </Anchor>
            </Group>
          </Stack>
          <Button
            variant={listOpen ? 'light' : 'default'}
            h={40}
            px="sm"
            leftSection={
              listOpen ? (
                <IconLayoutSidebarRightCollapse size={18} />
              ) : (
                <IconLayoutSidebarRightExpand size={18} />
              )
            }
            aria-expanded={listOpen}
            data-testid="video-playlist-toggle"
            onClick={() => setListOpen((o) => !o)}
          >
            {vv.playlist}
          </Button>
        </Group>
      }
    >
      <div className={sideBySide ? classes.layoutSide : classes.layoutBelow} data-testid="video-preview">
        <div className={classes.player}>
          <div className={classes.frame} ref={frameRef} data-fullscreen={fullscreen || undefined}>
            <div className={classes.screen}>
              {/* One element for every video of the list: switching keeps its speed and listeners. */}
              <video
                ref={videoRef}
                src={src ?? undefined}
                className={classes.video}
                playsInline
                preload="metadata"
                data-testid="video-element"
                onClick={toggle}
                onPlay={() => setPlaying(true)}
                onPause={() => setPlaying(false)}
                onEnded={() => setPlaying(false)}
                onTimeUpdate={(e) => {
                  const now = e.currentTarget.currentTime;
                  setClock((c) => ({ src, time: now, length: c.src === src ? c.length : 0 }));
                }}
                onDurationChange={(e) => {
                  const d = e.currentTarget.duration;
                  const len = Number.isFinite(d) ? d : 0;
                  setClock((c) => ({ src, time: c.src === src ? c.time : 0, length: len }));
                }}
                onLoadedData={(e) => {
                  const el = e.currentTarget;
                  el.playbackRate = rate;
                  if (playOnLoad.current) {
                    playOnLoad.current = false;
                    void el.play().catch(() => undefined);
                  }
                  if (posterWanted(file, editable)) void storePosterIfMissing(area, file, el);
                }}
                onError={() => {
                  playOnLoad.current = false;
                  setFailed(src);
                  setPlaying(false);
                }}
              />
              {error && (
                <div className={classes.error} role="alert" data-testid="video-error">
                  {error}
                </div>
              )}
            </div>
            <div className={classes.controls}>
              <Slider
                aria-label={vv.progress}
                min={0}
                max={Math.max(length, 0.1)}
                step={0.1}
                value={Math.min(time, length || time)}
                label={(x) => formatTime(x)}
                thumbSize={18}
                disabled={Boolean(error)}
                onChange={(x) => {
                  const el = video();
                  if (el && Number.isFinite(el.duration)) el.currentTime = x;
                  setClock((c) => ({ src, time: x, length: c.src === src ? c.length : 0 }));
                }}
              />
              <Group justify="space-between" wrap="nowrap" gap="xs" mt={6}>
                <Group gap="xs" wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    color="gray.0"
                    size={44}
                    aria-label={playing ? vv.pause : vv.play}
                    data-testid="video-play"
                    disabled={Boolean(error) || !src}
                    onClick={toggle}
                    className={classes.tool}
                  >
                    {playing ? <IconPlayerPauseFilled size={24} /> : <IconPlayerPlayFilled size={24} />}
                  </ActionIcon>
                  <Text size="sm" c="gray.2" className={classes.time} data-testid="video-time">
                    {formatTime(time)} / {formatTime(length)}
                  </Text>
                </Group>
                <Group gap={4} wrap="nowrap">
                  <Menu position="top-end" withinPortal={!fullscreen} shadow="md">
                    <Menu.Target>
                      <Button
                        variant="subtle"
                        color="gray.0"
                        h={44}
                        px="xs"
                        aria-label={`${vv.speed} ${vv.speedValue(rate)}`}
                        data-testid="video-speed"
                        className={classes.tool}
                      >
                        {rate === 1 ? vv.speed : vv.speedValue(rate)}
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Label>{vv.speed}</Menu.Label>
                      {SPEEDS.map((r) => (
                        <Menu.Item
                          key={r}
                          onClick={() => chooseRate(r)}
                          leftSection={r === rate ? <IconCheck size={16} /> : <span style={{ width: 16 }} />}
                          style={{ minHeight: 40 }}
                        >
                          {vv.speedValue(r)}
                        </Menu.Item>
                      ))}
                    </Menu.Dropdown>
                  </Menu>
                  <Tooltip label={fullscreen ? vv.exitFullscreen : vv.fullscreen} withinPortal={!fullscreen}>
                    <ActionIcon
                      variant="subtle"
                      color="gray.0"
                      size={44}
                      aria-label={fullscreen ? vv.exitFullscreen : vv.fullscreen}
                      onClick={toggleFullscreen}
                      className={classes.tool}
                    >
                      {fullscreen ? <IconMinimize size={22} /> : <IconMaximize size={22} />}
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </div>
          </div>
        </div>
        {listOpen && playlist}
      </div>
    </Modal>
  );
}
