/** A labelled search box that narrows what a view lists. */

interface SearchFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  inline?: boolean;
}

export function SearchField({ label, value, onChange, placeholder, inline }: SearchFieldProps) {
  return (
    <label class={inline ? "inline-field" : "filter"}>
      {label}
      <input type="search" value={value} placeholder={placeholder} onInput={(event) => onChange(event.currentTarget.value)} />
    </label>
  );
}
