import type { ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** the cell's class, the same for every row or from the row (a state's colour) */
  className?: string | ((row: Row) => string);
}

/**
 * A list as a table: a caption (hidden unless `showCaption`), one header per column, a row per
 * item, and `empty` under it once loaded with nothing (`rows` undefined: still loading).
 */
export function ListTable<Row>(props: {
  caption: string;
  showCaption?: boolean;
  columns: Array<Column<Row>>;
  rows: Row[] | undefined;
  rowKey: (row: Row) => string;
  empty: ReactNode;
}) {
  const { caption, showCaption = false, columns, rows, rowKey, empty } = props;
  return (
    <>
      <table>
        <caption className={showCaption ? undefined : 'sr-only'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={typeof column.className === 'function' ? column.className(row) : column.className}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows && rows.length === 0 && <p>{empty}</p>}
    </>
  );
}
