/** A table's column headers; numeric columns are right-aligned. */

export type Column = string | { label: string; numeric: true };

export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === "string" ? (
            <th key={column} scope="col">
              {column}
            </th>
          ) : (
            <th key={column.label} scope="col" class="number">
              {column.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** A numeric column. */
export const numeric = (label: string): Column => ({ label, numeric: true });
