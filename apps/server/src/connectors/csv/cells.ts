/** The CSV connector reads cells as every spreadsheet connector does (../grid/cells.ts). */
export { columnFormat, type NumberCell, readDateColumn, readNumberCell } from "../grid/cells";
