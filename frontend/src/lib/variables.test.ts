import { describe, expect, it } from 'vitest'
import { placeholders } from './variables'

describe('placeholders', () => {
  it('lists each {{name}} once, in first-use order, across texts', () => {
    expect(placeholders('Hi {{name}}, about {{ day }} and {{name}}.', null, 'Bye {{company.name}} {{x-y}}')).toEqual(['name', 'day', 'company.name', 'x-y'])
  })

  it('ignores what is not a placeholder', () => {
    expect(placeholders('{{}} {{1abc}} {name} {{ two words }}', undefined)).toEqual([])
  })
})
