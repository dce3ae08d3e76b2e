import { formatMuseumMinute, museumDate, parseMuseumMinute } from '../../rules/museum-time';

/**
 * Whether an individual order may be admitted at a moment (records-design §7.4; README
 * "Visitor reservations" › the gate): not cancelled, voided or missed, on its visit day, inside
 * [start − tolerance, end + tolerance]. The server's finishAppoint and the gate tablet checking
 * a code offline say the same words from here.
 */
export interface AdmissibleOrder {
  date: string;
  startTime: string;
  endTime: string;
  status: number;
  cancelReason?: string | null;
}

/**
 * The refusal's words, or null. `device`: the moment is one a tablet recorded offline and
 * sends later, so the words name it (the gate keeps them beside the check-in).
 */
export function admissionProblem(
  o: AdmissibleOrder,
  t: number,
  toleranceMinutes: number,
  device = false,
): string | null {
  const reason = o.cancelReason ? `（${o.cancelReason}）` : '';
  if (o.status === 3) return `该预约已取消${reason}，不能入馆`;
  if (o.status === 5) return `该预约已作废（场次关闭）${reason}，不能入馆`;
  if (o.status === 4) return '该预约已失约，不能入馆';
  if (o.date !== museumDate(t))
    return device
      ? `该预约的参观日期是 ${o.date}，本机记录的入馆时间是 ${formatMuseumMinute(t)}，不在当天`
      : `该预约的参观日期是 ${o.date}，不是今天`;
  const tol = toleranceMinutes * 60_000;
  const from = parseMuseumMinute(`${o.date} ${o.startTime}`)! - tol;
  const to = parseMuseumMinute(`${o.date} ${o.endTime}`)! + tol;
  const at = device ? `（本机记录的入馆时间 ${formatMuseumMinute(t).slice(11)}）` : '';
  if (t < from) return `未到入馆时间：该场次 ${formatMuseumMinute(from).slice(11)} 起可入馆${at}`;
  if (t > to) return `已过入馆时间：该场次 ${formatMuseumMinute(to).slice(11)} 停止入馆${at}`;
  return null;
}
