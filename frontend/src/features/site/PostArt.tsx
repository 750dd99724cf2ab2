/** A post card's image, drawn here from one of 5 palettes (no image service): the palette and
 * the shapes follow from the post's id, so a post always gets the same picture. */
const PALETTES = [
  ['#4f46e5', '#818cf8', '#e0e7ff'],
  ['#0f766e', '#2dd4bf', '#ccfbf1'],
  ['#b45309', '#fbbf24', '#fef3c7'],
  ['#be123c', '#fb7185', '#ffe4e6'],
  ['#1d4ed8', '#38bdf8', '#e0f2fe'],
] as const

export function PostArt({ id, title, className }: { id: number; title: string; className?: string }) {
  const [deep, mid, light] = PALETTES[Math.abs(id) % PALETTES.length]
  const seed = (id * 37) % 100
  const gid = `post-art-${id}`
  return (
    <svg viewBox="0 0 400 220" className={className} role="img" aria-label={`Illustration for ${title}`} data-palette={Math.abs(id) % PALETTES.length}>
      <defs>
        <linearGradient id={gid} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={deep} />
          <stop offset="1" stopColor={mid} />
        </linearGradient>
      </defs>
      <rect width="400" height="220" fill={`url(#${gid})`} />
      <circle cx={60 + seed * 2.4} cy={40 + (seed % 5) * 12} r={70 + (seed % 4) * 10} fill={light} opacity="0.18" />
      <circle cx={340 - seed} cy={190 - (seed % 3) * 15} r={50 + (seed % 6) * 6} fill={light} opacity="0.14" />
      {Array.from({ length: 14 }, (_, i) => {
        const h = 12 + ((seed + i * 23) % 60)
        return <rect key={i} x={96 + i * 15} y={110 - h / 2} width="7" height={h} rx="3.5" fill={light} opacity="0.85" />
      })}
    </svg>
  )
}
