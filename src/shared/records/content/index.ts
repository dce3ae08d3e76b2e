import type { RecordDef } from '../define';
import { bsDigitalRelic, bsVolunteerIntro, bsVolunteerStory } from './applet';
import { bsCarousel } from './carousel';
import { bsCulturalcreative, enCulturalcreative } from './cultural';
import { enNews, enShowroom } from './english';
import {
  bsDigitalExhibition,
  bsExhibition,
  bsRelation,
  enDigitalExhibition,
  enExhibition,
} from './exhibition';
import { bsGuideChapter, bsGuideShowroom, bsGuideUnit } from './guide';
import { AudioVideo, bsClassroom, bsElecticWave, bsScience } from './learning';

/**
 * The website and mini-program content records (issue 23), in the order they register: a
 * record another refers to comes first (videos before the guide, showrooms before chapters).
 */
export const CONTENT_RECORDS: readonly RecordDef[] = [
  AudioVideo,
  bsCarousel,
  bsGuideShowroom,
  bsGuideChapter,
  bsGuideUnit,
  bsExhibition,
  enExhibition,
  bsDigitalExhibition,
  enDigitalExhibition,
  bsScience,
  bsClassroom,
  bsElecticWave,
  bsCulturalcreative,
  enCulturalcreative,
  bsRelation,
  enNews,
  enShowroom,
  // The mini-program's own pages (migration 0044, content/applet.ts).
  bsDigitalRelic,
  bsVolunteerIntro,
  bsVolunteerStory,
];

export {
  bsDigitalRelic,
  bsVolunteerIntro,
  bsVolunteerStory,
  AudioVideo,
  bsCarousel,
  bsClassroom,
  bsCulturalcreative,
  bsDigitalExhibition,
  bsElecticWave,
  bsExhibition,
  bsGuideChapter,
  bsGuideShowroom,
  bsGuideUnit,
  bsRelation,
  bsScience,
  enCulturalcreative,
  enDigitalExhibition,
  enExhibition,
  enNews,
  enShowroom,
};
