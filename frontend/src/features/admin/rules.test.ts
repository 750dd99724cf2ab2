import { describe, expect, it } from 'vitest'
import type { AdminUser } from './api'
import { PASSWORD_RULE, PROMPT_ERROR, checkAmount, checkNewUser, checkPrompt, formatLength, nextSort, postErrors, shortId, userChanges, type UserForm } from './rules'

const form: UserForm = { name: 'Ada', email: 'ada@example.com', password: 'Str0ngPass', balance: '10', role: 'user' }
const original: AdminUser = {
  id: 4,
  name: 'Ada',
  email: 'ada@example.com',
  balance: 10,
  role: 'user',
  email_verified_at: null,
  created_at: '2026-11-21T10:00:00Z',
}

describe('Add New User', () => {
  it('accepts a complete form', () => expect(checkNewUser(form)).toBeNull())
  it('needs every field, and a balance of 0 counts as missing', () => {
    for (const change of [{ name: ' ' }, { email: '' }, { password: '' }, { balance: '0' }, { balance: '' }]) {
      expect(checkNewUser({ ...form, ...change })).toEqual({ message: 'Please fill in all required fields', title: 'Validation Error' })
    }
  })
  it('checks the e-mail pattern', () => {
    expect(checkNewUser({ ...form, email: 'ada@example' })?.message).toBe('Please enter a valid email address')
  })
  it('applies the password policy (8+, lower, upper, digit)', () => {
    for (const password of ['Sh0rt', 'alllower1', 'ALLUPPER1', 'NoDigitsHere']) {
      expect(checkNewUser({ ...form, password })).toEqual({ message: PASSWORD_RULE, title: 'Password Error' })
    }
  })
})

describe('Update User', () => {
  const edit = { ...form, password: '' }
  it('sends only the changed fields, and never a balance of 0', () => {
    expect(userChanges(original, edit).changes).toEqual({})
    expect(userChanges(original, { ...edit, name: 'Ada L', balance: '12.5', role: 'admin' }).changes).toEqual({ name: 'Ada L', balance: 12.5, role: 'admin' })
    expect(userChanges(original, { ...edit, balance: '0' }).changes).toEqual({})
    expect(userChanges(original, { ...edit, email: 'ADA@example.com' }).changes).toEqual({})
    expect(userChanges(original, { ...edit, password: 'N3wPassword' }).changes).toEqual({ password: 'N3wPassword' })
  })
  it('gives the spec messages', () => {
    const { errors } = userChanges(original, { ...form, name: '', email: 'x', balance: '-1', password: 'weak' })
    expect(errors).toEqual({ name: 'Name is required', email: 'Invalid email format', balance: 'Balance cannot be negative', password: PASSWORD_RULE })
  })
})

describe('Add Balance, posts, the prompt and the call log', () => {
  it('needs at least a cent', () => {
    expect(checkAmount('0')).toBe('Amount must be greater than 0')
    expect(checkAmount('0.001')).toBe('Amount must be greater than 0')
    expect(checkAmount('abc')).toBe('Amount must be greater than 0')
    expect(checkAmount('0.01')).toBeNull()
  })
  it('needs a title, a description and content with something in it', () => {
    expect(postErrors({ title: '', description: ' ', content: '<p></p>' })).toEqual({
      title: 'Title is required',
      description: 'Description is required',
      content: 'Content is required',
    })
    expect(postErrors({ title: 'T', description: 'D', content: '<p><img src="https://x/a.png"></p>' })).toEqual({})
  })
  it('caps the prompt at 1000 characters', () => {
    expect(checkPrompt('')).toBe(PROMPT_ERROR)
    expect(checkPrompt('x'.repeat(1001))).toBe(PROMPT_ERROR)
    expect(checkPrompt('x'.repeat(1000))).toBeNull()
  })
  it('shortens ids, caps durations at an hour and flips sorts', () => {
    expect(shortId('0123456789abcdef')).toBe('01234567')
    expect(formatLength(75)).toBe('1:15')
    expect(formatLength(5000)).toBe('60:00')
    expect(nextSort('-created_at', 'cost')).toBe('-cost')
    expect(nextSort('-cost', 'cost')).toBe('cost')
    expect(nextSort('cost', 'cost')).toBe('-cost')
  })
})
