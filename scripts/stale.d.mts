export declare const root: string;
export type Build = 'front' | 'server';
export declare const BUILDS: Record<Build, { inputs: string[]; stamp: string }>;
export declare function isStale(which: Build): boolean;
