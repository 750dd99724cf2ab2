/** User Management (spec sections 2, 5, 8): search by name or e-mail, 7 per page, a table on
 * desktop and cards on phones, Add New User, Update User (only changed fields), Add Balance (a
 * ledger top-up by this admin) and Delete (after a confirmation). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CreditCard, Pencil, Plus, Trash2, Wallet } from 'lucide-react'
import { useCallback, useState, type FormEvent } from 'react'
import { Pager } from '@/components/Pager'
import { Button } from '@/components/ui/button'
import { Card, Skeleton } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Modal } from '@/components/Modal'
import { ApiError, messageOf } from '@/lib/api'
import { formatCurrency } from '@/lib/format'
import { notify } from '@/lib/toast'
import { adminApi, adminKeys, usersQuery, USERS_PAGE_SIZE, type AdminUser } from './api'
import { PageHeader, SearchBox, Select, TableHead, TableState, TD } from '@/components/kit'
import { TopUpsDialog } from './TopUpsDialog'
import { DEFAULT_BALANCE, checkAmount, checkNewUser, userChanges, type UserForm } from './rules'

type Dialog = { kind: 'add' } | { kind: 'edit'; user: AdminUser } | { kind: 'balance'; user: AdminUser } | { kind: 'top-ups'; user: AdminUser } | null

export function UsersPage() {
  const [q, setQ] = useState('')
  const [page, setPage] = useState(1)
  const [dialog, setDialog] = useState<Dialog>(null)
  const users = useQuery(usersQuery(q, page))
  const client = useQueryClient()
  const rows = users.data?.data ?? []
  const refresh = () => client.invalidateQueries({ queryKey: adminKeys.all })
  const onSearch = useCallback((text: string) => {
    setQ(text)
    setPage(1)
  }, [])

  const remove = useMutation({
    mutationFn: (user: AdminUser) => adminApi.deleteUser(user.id),
    onSuccess: () => {
      notify.success('User deleted successfully!')
      void refresh()
    },
    onError: (error) => notify.error(`Failed to delete user: ${messageOf(error, 'Failed to delete user')}`),
  })
  const askDelete = (user: AdminUser) => {
    if (window.confirm('Are you sure you want to delete this user?')) remove.mutate(user)
  }

  const actions = (user: AdminUser) => (
    <div className="flex items-center gap-1">
      <Button variant="ghost" size="sm" aria-label={`Add balance for ${user.name}`} onClick={() => setDialog({ kind: 'balance', user })}>
        <Wallet className="h-4 w-4" aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" aria-label={`Card top-ups of ${user.name}`} onClick={() => setDialog({ kind: 'top-ups', user })}>
        <CreditCard className="h-4 w-4" aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" aria-label={`Edit ${user.name}`} onClick={() => setDialog({ kind: 'edit', user })}>
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" aria-label={`Delete ${user.name}`} onClick={() => askDelete(user)} disabled={remove.isPending}>
        <Trash2 className="h-4 w-4 text-rose-600" aria-hidden />
      </Button>
    </div>
  )

  return (
    <div className="space-y-6">
      <PageHeader
        title="User Management"
        subtitle="Accounts, roles and prepaid balances."
        action={
          <Button onClick={() => setDialog({ kind: 'add' })}>
            <Plus className="h-4 w-4" aria-hidden /> Add New User
          </Button>
        }
      />
      <SearchBox placeholder="Search by name or email..." onSearch={onSearch} />
      <Card className="overflow-hidden">
        <div className="hidden md:block">
          <table className="w-full" data-testid="users-table">
            <TableHead labels={['Name', 'Email', 'Balance', 'Role', 'Actions']} />
            <tbody className="divide-y divide-slate-100">
              <TableState columns={5} rows={USERS_PAGE_SIZE} loading={users.isPending} error={users.isError ? users.error.message : null} empty="No users found." hasRows={rows.length > 0} />
              {!users.isPending &&
                !users.isError &&
                rows.map((user) => (
                  <tr key={user.id} className="hover:bg-slate-50">
                    <td className={`${TD} font-medium text-slate-900`}>{user.name}</td>
                    <td className={TD}>{user.email}</td>
                    <td className={`${TD} tabular-nums`}>{formatCurrency(user.balance)}</td>
                    <td className={`${TD} capitalize`}>{user.role}</td>
                    <td className={TD}>{actions(user)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
        <ul className="divide-y divide-slate-100 md:hidden" aria-label="Users">
          {users.isPending
            ? Array.from({ length: 3 }, (_, i) => (
                <li key={i} className="p-4">
                  <Skeleton className="h-16 w-full" />
                </li>
              ))
            : rows.map((user) => (
                <li key={user.id} className="flex items-start justify-between gap-3 p-4">
                  <div className="min-w-0 text-sm">
                    <p className="font-semibold text-slate-900">{user.name}</p>
                    <p className="truncate text-slate-500">{user.email}</p>
                    <p className="mt-1 text-slate-600">
                      {formatCurrency(user.balance)} · <span className="capitalize">{user.role}</span>
                    </p>
                  </div>
                  {actions(user)}
                </li>
              ))}
        </ul>
        <Pager page={page} lastPage={users.data?.pagination.last_page ?? 1} onPage={setPage} busy={users.isFetching} />
      </Card>
      {dialog?.kind === 'add' && <AddUserDialog onClose={() => setDialog(null)} onDone={refresh} />}
      {dialog?.kind === 'edit' && <EditUserDialog user={dialog.user} onClose={() => setDialog(null)} onDone={refresh} />}
      {dialog?.kind === 'balance' && <BalanceDialog user={dialog.user} onClose={() => setDialog(null)} onDone={refresh} />}
      {dialog?.kind === 'top-ups' && <TopUpsDialog user={dialog.user} onClose={() => setDialog(null)} onDone={refresh} />}
    </div>
  )
}

interface DialogProps {
  onClose: () => void
  onDone: () => void
}

function UserFields({ form, set, errors = {}, editing }: { form: UserForm; set: (f: UserForm) => void; errors?: Partial<Record<keyof UserForm, string>>; editing?: boolean }) {
  const input = (key: 'name' | 'email' | 'password' | 'balance', label: string, type = 'text', extra: Record<string, unknown> = {}) => (
    <Field id={`user-${key}`} label={label} error={errors[key]}>
      <Input id={`user-${key}`} type={type} value={form[key]} aria-invalid={Boolean(errors[key])} onChange={(e) => set({ ...form, [key]: e.target.value })} {...extra} />
    </Field>
  )
  return (
    <div className="space-y-4">
      {input('name', 'Name', 'text', { autoComplete: 'off', maxLength: 255 })}
      {input('email', 'Email', 'email', { autoComplete: 'off' })}
      {input('password', editing ? 'New password (optional)' : 'Password', 'password', { autoComplete: 'new-password' })}
      {input('balance', 'Balance ($)', 'number', { min: 0, step: 0.01 })}
      <Field id="user-role" label="Role">
        <Select id="user-role" value={form.role} onChange={(e) => set({ ...form, role: e.target.value as UserForm['role'] })}>
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </Select>
      </Field>
    </div>
  )
}

function AddUserDialog({ onClose, onDone }: DialogProps) {
  const [form, setForm] = useState<UserForm>({ name: '', email: '', password: '', balance: String(DEFAULT_BALANCE), role: 'user' })
  const add = useMutation({
    mutationFn: () => adminApi.addUser({ name: form.name.trim(), email: form.email.trim(), password: form.password, balance: Number(form.balance), role: form.role }),
    onSuccess: () => {
      notify.success('Added user successfuly.')
      onDone()
      onClose()
    },
    onError: (error) => notify.error(`Failed to add user: ${messageOf(error, 'Failed to add user')}`),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const problem = checkNewUser(form)
    if (problem) return notify.error(problem.message, problem.title)
    add.mutate()
  }
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title="Add New User">
      <form onSubmit={submit} noValidate className="space-y-5">
        <UserFields form={form} set={setForm} />
        <DialogButtons busy={add.isPending} label="Add User" onClose={onClose} />
      </form>
    </Modal>
  )
}

function EditUserDialog({ user, onClose, onDone }: DialogProps & { user: AdminUser }) {
  const [form, setForm] = useState<UserForm>({ name: user.name, email: user.email, password: '', balance: String(user.balance), role: user.role as UserForm['role'] })
  const [errors, setErrors] = useState<Partial<Record<keyof UserForm, string>>>({})
  const update = useMutation({
    mutationFn: (changes: ReturnType<typeof userChanges>['changes']) => adminApi.updateUser(user.id, changes),
    onSuccess: () => {
      notify.success('User updated successfully!')
      onDone()
      onClose()
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.message === 'Email already exists') {
        setErrors({ email: 'Email is already in use' })
        notify.error('Email already in use.')
      } else notify.error(`Failed to update user: ${messageOf(error, 'Failed to update user')}`)
    },
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const { errors: found, changes } = userChanges(user, form)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    if (Object.keys(changes).length === 0) return notify.warning('No changes detected.')
    update.mutate(changes)
  }
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title="Update User">
      <form onSubmit={submit} noValidate className="space-y-5">
        <UserFields form={form} set={setForm} errors={errors} editing />
        <DialogButtons busy={update.isPending} label="Update User" onClose={onClose} />
      </form>
    </Modal>
  )
}

function BalanceDialog({ user, onClose, onDone }: DialogProps & { user: AdminUser }) {
  const [amount, setAmount] = useState('')
  const [error, setError] = useState<string | null>(null)
  const add = useMutation({
    mutationFn: () => adminApi.addBalance(user.id, Number(amount)),
    onSuccess: () => {
      notify.success(`Added $${Number(amount).toFixed(2)} to user balance!`)
      onDone()
      onClose()
    },
    onError: (e) => notify.error(`Failed to add balance: ${messageOf(e, 'Failed to update balance')}`),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const problem = checkAmount(amount)
    setError(problem)
    if (!problem) add.mutate()
  }
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Add Balance for ${user.name}`}>
      <form onSubmit={submit} noValidate className="space-y-5">
        <p className="text-sm text-slate-600">Current balance: {formatCurrency(user.balance)}</p>
        <Field id="balance-amount" label="Amount to Add ($)" error={error ?? undefined}>
          <Input id="balance-amount" type="number" min={0.01} step={0.01} value={amount} onChange={(e) => setAmount(e.target.value)} aria-invalid={Boolean(error)} autoFocus />
        </Field>
        <DialogButtons busy={add.isPending} label="Add Balance" onClose={onClose} />
      </form>
    </Modal>
  )
}

function DialogButtons({ busy, label, onClose }: { busy: boolean; label: string; onClose: () => void }) {
  return (
    <div className="flex justify-end gap-2">
      <Button type="button" variant="secondary" onClick={onClose}>
        Cancel
      </Button>
      <Button type="submit" disabled={busy}>
        {busy ? 'Saving...' : label}
      </Button>
    </div>
  )
}
