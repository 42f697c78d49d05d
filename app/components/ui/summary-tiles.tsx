/** A row of figures above a list (the list's summary call); a tile's `hint` is a small line under it. */
export function SummaryTiles({
  tiles,
}: {
  tiles: { label: string; value: number | string; hint?: string }[];
}) {
  return (
    <dl className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map((tile) => (
        <div
          key={tile.label}
          className="min-w-0 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200"
        >
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{tile.label}</dt>
          <dd
            className={`mt-1 font-semibold text-slate-900 ${typeof tile.value === 'number' ? 'text-2xl' : 'text-lg'}`}
          >
            {tile.value}
          </dd>
          {tile.hint ? <dd className="mt-0.5 text-xs text-slate-600">{tile.hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
