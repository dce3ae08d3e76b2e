import type { Attachment } from '../../shared/api/attach';
import { UNIT, type FormField } from '../../shared/workflow/definition';
import type { FormValues } from '../../shared/workflow/conditions';
import { checkForm } from '../../shared/workflow/form';
import { rangeDuration as sharedDuration, type Half } from '../../shared/workflow/duration';

/**
 * 发起审批 (issue 8): what the start form holds while a person fills it, how it becomes the
 * `form` of /workflowInst/start, and the draft kept per template so leaving the page (or losing
 * the network) never loses what was typed. Pure apart from the draft store.
 */

/** A person chosen in a person field, kept with the name the picker showed. */
export interface DraftPerson {
  id: number;
  name: string;
}
/**
 * A date range as typed: days 'yyyy-MM-dd' with a half each (上午/下午; absent: the start's
 * morning and the end's afternoon, whole days), hours 'yyyy-MM-dd HH:mm'.
 */
export interface DraftRange {
  start: string;
  end: string;
  startHalf?: Half;
  endHalf?: Half;
}
/**
 * One field's input: text, textarea, number and amount the typed text; date a day; dateRange
 * a DraftRange; radio a key; checkbox keys; person DraftPerson[]; dept ids; attachment and
 * image the uploaded Attachment rows (their names and thumbnails survive a return to the page).
 */
export type DraftValue = string | string[] | number[] | DraftRange | DraftPerson[] | Attachment[];
export interface StartDraft {
  values: Record<string, DraftValue>;
  priority: 1 | 2 | 3;
}

export const emptyDraft = (): StartDraft => ({ values: {}, priority: 1 });

/** The halves a range in days is read with (the start's morning and the end's afternoon unless chosen). */
export function withHalves(r: DraftRange): DraftRange {
  return { ...r, startHalf: r.startHalf ?? 'am', endHalf: r.endHalf ?? 'pm' };
}

/**
 * The live duration shown under a range, in the field's unit: the shared rule the server
 * computes with (shared/workflow/duration.ts), so the page never shows a length the server
 * would refuse. Null while a side is missing or invalid, or the end is before the start.
 */
export function rangeDuration(range: DraftRange, unit: 0 | 1 | undefined): number | null {
  return sharedDuration(
    unit === UNIT.hours ? { start: range.start, end: range.end } : withHalves(range),
    unit,
  );
}

/** 'yyyy-MM-ddTHH:mm' (a datetime-local input) ↔ 'yyyy-MM-dd HH:mm' (the stored form). */
export const fromLocalInput = (v: string) => v.replace('T', ' ');
export const toLocalInput = (v: string) => v.replace(' ', 'T');

/** The draft as /workflowInst/start's `form`, before checkForm normalises it. */
export function toFormValues(fields: readonly FormField[], draft: StartDraft): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const v = draft.values[f.id];
    if (v === undefined) continue;
    switch (f.type) {
      case 'dateRange': {
        const r = v as DraftRange;
        if (!r.start && !r.end) break;
        const ends = f.unit === UNIT.hours ? { start: r.start, end: r.end } : withHalves(r);
        // The server computes the duration again and refuses a different one.
        out[f.id] = { ...ends, duration: rangeDuration(r, f.unit) ?? 0 };
        break;
      }
      case 'person':
        out[f.id] = (v as DraftPerson[]).map((p) => p.id);
        break;
      case 'attachment':
      case 'image':
        out[f.id] = (v as Attachment[]).map((a) => a.attId);
        break;
      default:
        out[f.id] = v;
    }
  }
  return out;
}

/**
 * Every field's problem at once, in the shared checkForm's words (the server answers with the
 * same sentence): checkForm stops at the first problem, so each field is checked alone.
 */
export function fieldErrors(fields: readonly FormField[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const r = checkForm([f], values);
    if (!r.ok) errors[f.id] = r.message;
  }
  return errors;
}

// ——— Drafts: in memory, and in sessionStorage so a reload of the tab keeps them too ———

const memory = new Map<string, StartDraft>();
const storageKey = (userId: number, templateId: number) => `gwy.approvalDraft.${userId}.${templateId}`;

export function loadDraft(userId: number, templateId: number): StartDraft {
  const key = storageKey(userId, templateId);
  const kept = memory.get(key);
  if (kept) return kept;
  try {
    const raw = globalThis.sessionStorage?.getItem(key);
    if (raw) {
      const d = JSON.parse(raw) as StartDraft;
      if (d && typeof d.values === 'object' && [1, 2, 3].includes(d.priority)) return d;
    }
  } catch {
    /* a broken entry is treated as absent */
  }
  return emptyDraft();
}

export function saveDraft(userId: number, templateId: number, draft: StartDraft) {
  const key = storageKey(userId, templateId);
  memory.set(key, draft);
  try {
    globalThis.sessionStorage?.setItem(key, JSON.stringify(draft));
  } catch {
    /* a full storage keeps the in-memory draft */
  }
}

export function clearDraft(userId: number, templateId: number) {
  const key = storageKey(userId, templateId);
  memory.delete(key);
  try {
    globalThis.sessionStorage?.removeItem(key);
  } catch {
    /* nothing to remove */
  }
}
