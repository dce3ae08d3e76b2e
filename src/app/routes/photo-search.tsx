import { dictKeysOf } from '../../shared/records/define';
import { bsDigitalassetsInfo } from '../../shared/records/collection/collection';
import { PhotoSearchPage } from '../features/photo-search/photo-search-page';
import { RecordDetailDrawer } from '../features/records';
import { useDictionaries } from '../lib/records';

/** 以图搜图 (/photo/search): the search page, opening a collection image's record in the engine's drawer. */
export function PhotoSearchRoute() {
  const dicts = useDictionaries(dictKeysOf(bsDigitalassetsInfo));
  return (
    <PhotoSearchPage
      renderRecord={(id, onClose) => (
        <RecordDetailDrawer def={bsDigitalassetsInfo} id={id} dictLabel={dicts.labelOf} onClose={onClose} />
      )}
    />
  );
}
