/** A row of figures above a list (the list's summary call). */
export function SummaryTiles({ tiles }: { tiles: { label: string; value: number | string }[] }) {
  return (
    <dl className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map((tile) => (
        <div
          key={tile.label}
          className="min-w-0 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200"
        >
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{tile.label}</dt>
          <dd
            className={`mt-1 break-words font-semibold text-slate-900 ${typeof tile.value === 'number' ? 'text-2xl' : 'text-lg'}`}
          >
            {tile.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
