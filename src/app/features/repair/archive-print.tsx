import { Button, Group, Loader, Modal, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import type { RecordDetail } from '../../../shared/records/api';
import { dictKeysOf, statusLabel, type Field } from '../../../shared/records/define';
import { SEVERITIES, bsRepairManagement as def } from '../../../shared/records/repair/repair';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { tRepair } from '../../lib/i18n/repair';
import { useDictionaries, useRecordDetail } from '../../lib/records';
import css from './archive-print.module.css';

const T = tRepair;
type Rows = Record<string, unknown>[];

/**
 * One object's conservation archive as conservators file it (GB/T 30687 order: the object, its
 * condition before, the process, the condition after, the evaluation; S20), printed from the
 * browser with print CSS rather than a server PDF: it prints what the tablet shows, works from
 * the device's cached detail without a network, and needs no PDF engine on the server. The
 * browser's own 另存为 PDF gives the file when one is wanted.
 */
export function ArchivePrintDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useRecordDetail(def, id);
  const data = detail.data;
  return (
    <Modal opened onClose={onClose} fullScreen title={T.printTitle} data-testid="archive-print-dialog">
      <Group justify="flex-end" className={css.noPrint} mb="sm">
        <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()} disabled={!data}>
          {T.printNow}
        </Button>
      </Group>
      {data ? (
        <ArchiveSheet detail={data} />
      ) : detail.error ? (
        <Text c="red">{T.loadFailed}</Text>
      ) : (
        <Group>
          <Loader size="sm" />
          <Text>{T.loading}</Text>
        </Group>
      )}
    </Modal>
  );
}

function ArchiveSheet({ detail }: { detail: RecordDetail }) {
  const [printedAt] = useState(() => formatMuseumMinute(Date.now()));
  const { labelOf } = useDictionaries(dictKeysOf(def));
  const r = detail.record;
  const F: Record<string, Field> = def.fields;
  const user = (v: unknown) => detail.names.users[String(v)] ?? '';
  const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
  const dict = (k: string) => text(labelOf(F[k]!.dict!, r[k]));
  const project = detail.names.refs?.bsRepairProject?.[String(r.projectId)] ?? '';
  const photos = (k: string) => {
    const ids = (r[k] as number[]) ?? [];
    if (!ids.length) return <Text size="sm">{T.none}</Text>;
    return (
      <div className={css.photos}>
        {ids.map((a) => {
          const f = detail.names.files?.[String(a)];
          return f ? <img key={a} src={f.attPath} alt={f.attName} /> : null;
        })}
      </div>
    );
  };
  const cells: [string, string][] = [
    [F.archiveNo!.label, text(r.archiveNo)],
    [F.projectId!.label, text(project)],
    [F.relicName!.label, text(r.relicName)],
    [F.registerNo!.label, text(r.registerNo)],
    [F.category!.label, dict('category')],
    [F.level!.label, dict('level')],
    [F.era!.label, text(r.era)],
    [F.material!.label, dict('material')],
    [F.dimensions!.label, text(r.dimensions)],
    [F.weight!.label, text(r.weight)],
    [F.completeness!.label, dict('completeness')],
    [F.preservation!.label, dict('preservation')],
    [F.restorerIds!.label, ((r.restorerIds as number[]) ?? []).map(user).join('、') || '—'],
    [F.status!.label, statusLabel(def, r.status)],
  ];
  const pairs: [string, string, string, string][] = [];
  for (let i = 0; i < cells.length; i += 2)
    pairs.push([cells[i]![0], cells[i]![1], cells[i + 1]?.[0] ?? '', cells[i + 1]?.[1] ?? '']);
  const list = (k: string, cols: string[], word: (c: string, v: unknown) => string = (_c, v) => text(v)) => {
    const rows = (r[k] as Rows) ?? [];
    if (!rows.length) return <Text size="sm">{T.none}</Text>;
    const sub = F[k]!.sub!;
    return (
      <table className={css.table}>
        <thead>
          <tr>
            {cols.map((c) => (
              <th key={c}>{sub[c]!.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {cols.map((c) => (
                <td key={c}>{word(c, row[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  };
  return (
    <div className={css.sheet} data-testid="archive-sheet">
      <h1>{T.printTitle}</h1>
      <div className={css.sub}>
        {F.archiveNo!.label}：{text(r.archiveNo)} {T.printedAt(printedAt)}
      </div>
      <div className={css.section}>
        <h2>{T.basic}</h2>
        <table className={css.table}>
          <tbody>
            {pairs.map(([a, av, b, bv]) => (
              <tr key={a}>
                <th>{a}</th>
                <td>{av}</td>
                <th>{b}</th>
                <td>{bv}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className={css.section}>
        <h2>{T.diseases}</h2>
        {list('diseases', ['type', 'part', 'severity', 'extent', 'description'], (c, v) =>
          c === 'severity' ? (SEVERITIES.find((o) => o.value === v)?.label ?? text(v)) : text(v),
        )}
      </div>
      <div className={css.section}>
        <h2>{T.analyses}</h2>
        {list('analyses', ['method', 'instrument', 'sampleSpot', 'result'])}
      </div>
      <div className={css.section} data-testid="archive-before">
        <h2>{T.before}</h2>
        {photos('beforePhotoIds')}
      </div>
      <div className={css.section}>
        <h2>{T.steps}</h2>
        {list('steps', ['date', 'step', 'materials', 'ratio', 'tools', 'description'])}
      </div>
      <div className={css.section} data-testid="archive-after">
        <h2>{T.after}</h2>
        {photos('afterPhotoIds')}
      </div>
      <div className={css.section}>
        <h2>{T.evaluation}</h2>
        <table className={css.table}>
          <tbody>
            <tr>
              <th>{F.evaluation!.label}</th>
              <td style={{ whiteSpace: 'pre-wrap' }}>{text(r.evaluation)}</td>
            </tr>
            <tr>
              <th>{F.careAdvice!.label}</th>
              <td style={{ whiteSpace: 'pre-wrap' }}>{text(r.careAdvice)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <div className={css.section}>
        <h2>{T.custody}</h2>
        <table className={css.table}>
          <tbody>
            <tr>
              <th>{F.takeOutDate!.label}</th>
              <td>{text(r.takeOutDate)}</td>
              <th>{F.returnDate!.label}</th>
              <td>{text(r.returnDate)}</td>
              <th>{F.keeperId!.label}</th>
              <td>{text(user(r.keeperId))}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <div className={css.section}>
        <h2>{T.history}</h2>
        <table className={css.table}>
          <tbody>
            {detail.log.map((l, i) => (
              <tr key={i}>
                <td>{formatMuseumMinute(l.time)}</td>
                <td>{l.actionLabel}</td>
                <td>{statusLabel(def, l.toStatus)}</td>
                <td>{l.operatorName}</td>
                <td>{l.comment}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className={css.signs}>
        <span>{T.signRestorer}</span>
        <span>{T.signKeeper}</span>
        <span>{T.signDate}</span>
      </div>
    </div>
  );
}
