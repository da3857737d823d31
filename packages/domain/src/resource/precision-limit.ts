/**
 * The most a unit may allow: quantities are `numeric(18,4)`. Its own module, without the decimal
 * arithmetic of `precision.ts`, so the 计量单位 declaration does not carry decimal.js to the web.
 */
export const MAX_UNIT_PRECISION = 4;
