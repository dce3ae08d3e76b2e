/**
 * @fortune-sheet/formula-parser (MIT, the formula engine fortune-sheet itself uses; a fork of
 * handsontable's formula-parser over formula.js) ships without types: the part xlsx-recalc.ts
 * uses.
 */
declare module '@fortune-sheet/formula-parser' {
  export interface CellCoord {
    label: string;
    row: { index: number; isAbsolute: boolean };
    column: { index: number; isAbsolute: boolean };
    sheetName?: string | null;
  }
  export class Parser {
    parse(expression: string, options?: object): { error: string | null; result: unknown };
    on(
      event: 'callCellValue',
      handler: (coord: CellCoord, options: object, done: (value: unknown) => void) => void,
    ): void;
    on(
      event: 'callRangeValue',
      handler: (
        start: CellCoord,
        end: CellCoord,
        options: object,
        done: (value: unknown[][]) => void,
      ) => void,
    ): void;
  }
}
