import { ActionIcon, Group, Loader, Modal, Text, TextInput, Tooltip } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import {
  IconChevronLeft,
  IconChevronRight,
  IconDownload,
  IconLayoutBottombar,
  IconLayoutBottombarCollapse,
  IconRotate2,
  IconRotateClockwise2,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';
import { useCallback, useRef, useState, type PointerEvent, type ReactNode, type WheelEvent } from 'react';
import type { FileEntry } from '../../../../shared/api/drive';
import { joinName } from '../../../../shared/drive/names';
import { tPreview } from '../../../lib/i18n/preview';
import { useOnline } from '../../../lib/online';
import { downloadUrl, previewUrl, type ReadArea } from '../drive-data';
import { DeviceCopyNote } from './device-copy-note';
import { useThumbnail } from './source';
import type { PreviewProps } from './types';
import { ownsKeys, useWindowKeys, wrapIndex, usePaged } from './viewer-kit';
import classes from './image-viewer.module.css';

/** Zoom in percent (spec §9: 1 to 200, default 100); buttons and a wheel notch move it by 10. */
const ZOOM = { min: 1, max: 200, initial: 100, step: 10 } as const;
const clampZoom = (z: number) => Math.min(ZOOM.max, Math.max(ZOOM.min, Math.round(z)));
/** A finger must travel this far (px), mostly sideways, for a swipe to switch images. */
const SWIPE_MIN = 50;
/** Whether the thumbnail strip is shown, remembered on the device (spec §4). */
const THUMBS_KEY = 'gwy.preview.imageThumbs';

type Gesture =
  | { kind: 'pinch'; d0: number; z0: number }
  | { kind: 'pan'; x0: number; y0: number; px: number; py: number }
  | { kind: 'swipe'; x0: number; y0: number }
  | null;

const distance = (ps: { x: number; y: number }[]) =>
  ps.length < 2 ? 0 : Math.hypot(ps[0]!.x - ps[1]!.x, ps[0]!.y - ps[1]!.y);

/**
 * 图片预览 (spec §4 "Image previewer"): a full-screen dark overlay over the folder's images.
 * Zoom 1–200 % by buttons, the mouse wheel or a pinch; rotation in 90° steps, back to upright
 * on every change of image; ← → and a swipe switch images (wrapping round), an index field
 * jumps, Escape closes. The thumbnail strip loads small thumbnails lazily and its shown or
 * hidden state is kept on the device. When zoomed in, dragging moves the image.
 */
export default function ImageViewer({ files, index: start, area, onClose }: PreviewProps) {
  const v = tPreview.viewers;
  const im = v.image;
  const { n, index, setIndex, file, name, source } = usePaged(files, start, area);

  const [zoom, setZoom] = useState<number>(ZOOM.initial);
  // Rotation and panning belong to one image: kept with its index, so a switch resets them.
  const [turn, setTurn] = useState({ index, deg: 0 });
  const deg = turn.index === index ? turn.deg : 0;
  const [offset, setOffset] = useState({ index, x: 0, y: 0 });
  const pan = offset.index === index && zoom > ZOOM.initial ? offset : { x: 0, y: 0 };
  const [showThumbs, setShowThumbs] = useLocalStorage<boolean>({
    key: THUMBS_KEY,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const [loaded, setLoaded] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [draft, setDraft] = useState<{ index: number; text: string; error: string | null } | null>(null);
  const jump = draft?.index === index ? draft : { text: String(index + 1), error: null };

  const go = (i: number) => setIndex(wrapIndex(i, 0, n));
  const step = (by: number) => setIndex((i) => wrapIndex(i, by, n));
  const zoomBy = (by: number) => setZoom((z) => clampZoom(z + by));
  const rotate = (by: number) => setTurn({ index, deg: deg + by });

  const close = () => onClose('cancel');
  useWindowKeys((e) => {
    if (e.key === 'Escape') {
      close();
      return true;
    }
    if (ownsKeys(e.target, e.key)) return false;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      step(e.key === 'ArrowLeft' ? -1 : 1);
      return true;
    }
    return false;
  });

  const submitJump = () => {
    const k = Number(jump.text.trim());
    if (!Number.isInteger(k) || k < 1 || k > n) {
      setDraft({ index, text: jump.text, error: im.jumpError(n) });
      return;
    }
    setDraft(null);
    go(k - 1);
  };

  // The strip follows the shown image. A ref callback rather than an effect: the strip mounts
  // with the dialog's transition, after this component's first commit.
  const followThumb = useCallback(
    (el: HTMLButtonElement | null) => {
      el?.scrollIntoView({ block: 'nearest', inline: 'center', behavior: 'smooth' });
    },
    // A new callback for each image (and each showing of the strip) runs it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [index, showThumbs],
  );

  const onWheel = (e: WheelEvent) => {
    // Lines (Firefox) and pixels (the rest): one mouse notch is about ±100 px, so ±10 %.
    const px = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaY;
    const by = Math.max(-20, Math.min(20, -px / 10));
    if (by !== 0) setZoom((z) => clampZoom(z + (Math.abs(by) < 1 ? Math.sign(by) : by)));
  };

  // Touch: two fingers pinch, one finger swipes (or drags when zoomed in); a mouse drags.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<Gesture>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    if ((e.target as HTMLElement).closest('button')) return;
    try {
      // Keeps the gesture when a finger leaves the stage; refused for a pointer already gone.
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch {
      /* the gesture still works while the finger stays on the stage */
    }
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const ps = [...pointers.current.values()];
    if (ps.length >= 2) gesture.current = { kind: 'pinch', d0: distance(ps) || 1, z0: zoom };
    else if (zoom > ZOOM.initial)
      gesture.current = { kind: 'pan', x0: e.clientX, y0: e.clientY, px: pan.x, py: pan.y };
    else if (e.pointerType !== 'mouse') gesture.current = { kind: 'swipe', x0: e.clientX, y0: e.clientY };
    else gesture.current = null;
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = gesture.current;
    if (g?.kind === 'pinch') setZoom(clampZoom((g.z0 * distance([...pointers.current.values()])) / g.d0));
    else if (g?.kind === 'pan') setOffset({ index, x: g.px + e.clientX - g.x0, y: g.py + e.clientY - g.y0 });
  };
  const onPointerEnd = (e: PointerEvent<HTMLDivElement>) => {
    if (!pointers.current.delete(e.pointerId)) return;
    const g = gesture.current;
    if (g?.kind === 'swipe' && e.type === 'pointerup') {
      const dx = e.clientX - g.x0;
      const dy = e.clientY - g.y0;
      if (Math.abs(dx) >= SWIPE_MIN && Math.abs(dx) > 1.5 * Math.abs(dy)) step(dx < 0 ? 1 : -1);
    }
    // Lifting one finger of a pinch ends it; the other does not start a swipe.
    gesture.current = null;
  };

  const src = source.src;
  const error = source.error ?? (src && failed === src ? im.loadError : null);
  const transform = `translate(${pan.x}px, ${pan.y}px) scale(${zoom / 100}) rotate(${deg}deg)`;

  const tool = (label: string, icon: ReactNode, onClick: () => void, props: Record<string, unknown> = {}) => (
    <Tooltip label={label} withinPortal>
      <ActionIcon
        variant="subtle"
        color="gray.0"
        size={44}
        aria-label={label}
        onClick={onClick}
        className={classes.darkTool}
        {...props}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );

  return (
    <Modal
      opened
      onClose={close}
      fullScreen
      closeOnEscape={false}
      transitionProps={{ transition: 'fade', duration: 120 }}
      classNames={{
        content: classes.darkContent,
        header: classes.darkHeader,
        title: classes.darkTitle,
        close: classes.darkClose,
        body: classes.darkBody,
      }}
      title={
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Text span fw={600} truncate="end" data-testid="image-name">
            {name}
          </Text>
          <Text span c="gray.4" style={{ flexShrink: 0 }} data-testid="image-counter">
            {v.counter(index + 1, n)}
          </Text>
          <DeviceCopyNote shown={source.fromDevice} c="gray.4" />
        </Group>
      }
    >
      <div
        className={classes.stage}
        data-testid="image-stage"
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
      >
        {error ? (
          <Text c="gray.3" ta="center" px="md" data-testid="image-error">
            {error}
          </Text>
        ) : src ? (
          <>
            {loaded !== src && <Loader color="gray.3" className={classes.stageLoader} />}
            <img
              key={src}
              src={src}
              alt={name}
              draggable={false}
              className={classes.image}
              style={{ transform }}
              data-testid="image-current"
              data-zoom={zoom}
              data-rotate={deg}
              onLoad={() => setLoaded(src)}
              onError={() => setFailed(src)}
            />
          </>
        ) : (
          <Loader color="gray.3" />
        )}
        {n > 1 && (
          <>
            <ActionIcon
              variant="filled"
              color="dark.5"
              size={48}
              radius="xl"
              className={`${classes.side} ${classes.sideLeft}`}
              aria-label={im.prev}
              onClick={() => step(-1)}
            >
              <IconChevronLeft size={28} />
            </ActionIcon>
            <ActionIcon
              variant="filled"
              color="dark.5"
              size={48}
              radius="xl"
              className={`${classes.side} ${classes.sideRight}`}
              aria-label={im.next}
              onClick={() => step(1)}
            >
              <IconChevronRight size={28} />
            </ActionIcon>
          </>
        )}
      </div>

      <Group className={classes.toolbar} gap={4} justify="center" wrap="wrap">
        {tool(im.zoomOut, <IconZoomOut size={22} />, () => zoomBy(-ZOOM.step), {
          disabled: zoom <= ZOOM.min,
        })}
        <Text
          span
          c="gray.0"
          w={52}
          ta="center"
          aria-label={im.zoomLevel}
          aria-live="polite"
          data-testid="image-zoom"
        >
          {zoom}%
        </Text>
        {tool(im.zoomIn, <IconZoomIn size={22} />, () => zoomBy(ZOOM.step), { disabled: zoom >= ZOOM.max })}
        {tool(im.rotateLeft, <IconRotate2 size={22} />, () => rotate(-90))}
        {tool(im.rotateRight, <IconRotateClockwise2 size={22} />, () => rotate(90))}
        <Group gap={6} wrap="nowrap" px={4}>
          <TextInput
            aria-label={im.jump}
            title={im.jump}
            value={jump.text}
            inputMode="numeric"
            w={64}
            size="md"
            error={jump.error ? true : undefined}
            onChange={(e) => setDraft({ index, text: e.currentTarget.value, error: null })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') submitJump();
            }}
            onBlur={() => {
              if (draft?.index === index && draft.text !== String(index + 1)) submitJump();
            }}
            data-testid="image-jump"
          />
          <Text span c="gray.3">
            / {n}
          </Text>
        </Group>
        {tool(
          showThumbs ? im.hideThumbs : im.showThumbs,
          showThumbs ? <IconLayoutBottombarCollapse size={22} /> : <IconLayoutBottombar size={22} />,
          () => setShowThumbs(!showThumbs),
          { 'aria-pressed': showThumbs, 'data-testid': 'image-thumbs-toggle' },
        )}
        <Tooltip label={v.download} withinPortal>
          <ActionIcon
            component="a"
            href={downloadUrl(area, [file.userFileId])}
            download
            variant="subtle"
            color="gray.0"
            size={44}
            aria-label={v.download}
            className={classes.darkTool}
          >
            <IconDownload size={22} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {jump.error && (
        <Text c="red.4" ta="center" size="sm" role="alert" data-testid="image-jump-error">
          {jump.error}
        </Text>
      )}

      {showThumbs && n > 1 && (
        <div className={classes.thumbs} aria-label={im.thumbs} data-testid="image-thumbs">
          {files.map((f, i) => (
            <button
              key={f.userFileId}
              type="button"
              className={classes.thumb}
              ref={i === index ? followThumb : undefined}
              aria-current={i === index ? 'true' : undefined}
              aria-label={`${joinName(f.fileName, f.extendName)}（${v.counter(i + 1, n)}）`}
              onClick={() => go(i)}
            >
              <StripThumb area={area} file={f} />
            </button>
          ))}
        </div>
      )}
    </Modal>
  );
}

/**
 * One tile of the strip. Online: the server's thumbnail, loaded natively lazily (a folder may
 * hold hundreds of images). Offline: the device copy the list kept, if any.
 */
function StripThumb({ area, file }: { area: ReadArea; file: FileEntry }) {
  const online = useOnline();
  const kept = useThumbnail(online ? undefined : area, file);
  return (
    <img
      src={online ? previewUrl(area, file.userFileId, true) : (kept ?? undefined)}
      loading="lazy"
      alt=""
      draggable={false}
      // No thumbnail (none made, or not kept): the empty tile, not a broken-image sign.
      style={online || kept ? undefined : { visibility: 'hidden' }}
      onError={(e) => {
        e.currentTarget.style.visibility = 'hidden';
      }}
    />
  );
}
