import { describe, expect, it } from 'vitest'
import { languageClaim, OFFERED_LANGUAGES } from './offeredLanguages'

describe('the landing page language claim', () => {
  it('names the languages that passed while they are few, and counts them after', () => {
    expect(languageClaim(['English'])).toEqual({ short: 'Calls in English', value: 'English', label: 'language, tested end to end' })
    expect(languageClaim(['English', 'Spanish'])).toEqual({ short: 'Calls in English and Spanish', value: '2', label: 'languages: English and Spanish' })
    expect(languageClaim(['English', 'Spanish', 'Italian', 'German'])).toEqual({ short: '4 languages', value: '4', label: 'languages' })
    expect(languageClaim()).toEqual(languageClaim(OFFERED_LANGUAGES))
  })
})
