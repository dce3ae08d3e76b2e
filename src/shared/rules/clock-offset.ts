/**
 * A device's clock offset from the server's (the volunteer's phone, README "Volunteer service
 * and check-in"; the gate tablet, README "Visitor reservations"): what the server's clock says
 * minus the device's, so `deviceTime + offset` is the server's idea of when something happened
 * on the device. A write made offline carries both (`DeviceClock`), and the server places it
 * at `claimedTime`.
 */

/** What an offline write says about when it happened on the device. */
export interface DeviceClock {
  /** The device's clock at the moment (ms since epoch). */
  deviceTime?: number;
  /** The last offset the device measured (server minus device, ms). */
  serverOffsetMs?: number;
}

/** When the write happened, on the server's clock: the device's time corrected, or `fallback`. */
export function claimedTime(c: DeviceClock, fallback: number): number {
  if (typeof c.deviceTime !== 'number') return fallback;
  return c.deviceTime + (c.serverOffsetMs ?? 0);
}

/**
 * The offset from one timed read of the server's clock: the server's time minus the midpoint of
 * the request (the usual NTP-style estimate; half the round trip is the error).
 */
export function measureOffset(sentAt: number, receivedAt: number, serverTime: number): number {
  return Math.round(serverTime - (sentAt + receivedAt) / 2);
}

/** The server's idea of now on the device: its clock corrected by the last measured offset. */
export function correctedNow(deviceNow: number, offsetMs: number | undefined): number {
  return deviceNow + (offsetMs ?? 0);
}
