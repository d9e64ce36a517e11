/** Below this card body width names are abbreviated and charts drop decorations (docs/product.md §9). */
export const COMPACT_WIDTH = 380;
/** Below this body height charts use fewer axis ticks. */
export const SHORT_HEIGHT = 170;
