import { VolunteerHome } from '../features/volunteer-phone/volunteer-home';

/**
 * /m: the volunteer's phone view (issue 20; README "Volunteer accounts and the phone view"),
 * outside the staff shell. A volunteer with no staff page lands here after sign-in; staff who
 * also volunteer open it from the personal menu. Each session links to /m/session/<id>, the
 * check-in page (features/volunteer-checkin).
 */
export function VolunteerPhonePage() {
  return <VolunteerHome />;
}
