// The calendar's name for the shared turn slicing (src/platform/turn-slice.ts).
export { SLICE_MS, TurnSlice } from '../../platform/turn-slice.js';
