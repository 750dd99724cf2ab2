/** The route table of the spec (unknown paths go to /). Everything but the public home is
 * lazy-loaded, so the landing page ships only its own code. */
import { Navigate, type RouteObject } from 'react-router'
import { HomePage } from '@/features/site/HomePage'
import { SiteLayout } from '@/features/site/SiteLayout'
import { guestOnly, requireAdmin, requireAuth } from './guards'
import { RouteError } from './RouteError'

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        element: <SiteLayout />,
        children: [
          { path: '/', element: <HomePage /> },
          { path: '/blogs', lazy: async () => ({ Component: (await import('@/features/site/BlogHomePage')).BlogHomePage }) },
          { path: '/blogs/:id', lazy: async () => ({ Component: (await import('@/features/site/BlogPostPage')).BlogPostPage }) },
          { path: '/enterprise', lazy: async () => ({ Component: (await import('@/features/site/EnterprisePage')).EnterprisePage }) },
        ],
      },
      { path: '/login', loader: guestOnly, lazy: async () => ({ Component: (await import('@/features/auth/LoginPage')).LoginPage }) },
      { path: '/register', lazy: async () => ({ Component: (await import('@/features/auth/RegisterPage')).RegisterPage }) },
      {
        path: '/forgot-password',
        lazy: async () => ({ Component: (await import('@/features/auth/ForgotPasswordPage')).ForgotPasswordPage }),
      },
      {
        path: '/reset-password',
        lazy: async () => ({ Component: (await import('@/features/auth/ResetPasswordPage')).ResetPasswordPage }),
      },
      {
        path: '/dashboard',
        loader: requireAuth,
        lazy: async () => ({ Component: (await import('./AppLayout')).UserLayout }),
        children: [
          { index: true, lazy: async () => ({ Component: (await import('@/features/dashboard/DashboardHome')).DashboardHome }) },
          { path: 'account', lazy: async () => ({ Component: (await import('@/features/account/AccountPage')).AccountPage }) },
          { path: 'send-call', lazy: async () => ({ Component: (await import('@/features/calls/SendCallPage')).SendCallPage }) },
          { path: 'analysis', lazy: async () => ({ Component: (await import('@/features/calls/AnalysisPage')).AnalysisPage }) },
          { path: 'call-logs', lazy: async () => ({ Component: (await import('@/features/calls/CallLogsPage')).CallLogsPage }) },
          { path: 'calls/:callId', lazy: async () => ({ Component: (await import('@/features/calls/CallPage')).CallPage }) },
          { path: 'agents', lazy: async () => ({ Component: (await import('@/features/agents/AgentsPage')).AgentsPage }) },
          { path: 'agents/new', lazy: async () => ({ Component: (await import('@/features/agents/AgentEditorPage')).AgentEditorPage }) },
          { path: 'agents/:agentId', lazy: async () => ({ Component: (await import('@/features/agents/AgentEditorPage')).AgentEditorPage }) },
          { path: 'agents/:agentId/tests', lazy: async () => ({ Component: (await import('@/features/agents/AgentTestsPage')).AgentTestsPage }) },
          { path: 'flows', lazy: async () => ({ Component: (await import('@/features/flows/FlowsPage')).FlowsPage }) },
          { path: 'flows/:flowId', lazy: async () => ({ Component: (await import('@/features/flows/FlowEditorPage')).FlowEditorPage }) },
          { path: 'flows/:flowId/tests', lazy: async () => ({ Component: (await import('@/features/flows/FlowTestsPage')).FlowTestsPage }) },
          { path: 'campaigns', lazy: async () => ({ Component: (await import('@/features/campaigns/CampaignsPage')).CampaignsPage }) },
          { path: 'campaigns/new', lazy: async () => ({ Component: (await import('@/features/campaigns/NewCampaignPage')).NewCampaignPage }) },
          { path: 'campaigns/:campaignId', lazy: async () => ({ Component: (await import('@/features/campaigns/CampaignPage')).CampaignPage }) },
          { path: 'campaigns/:campaignId/setup', lazy: async () => ({ Component: (await import('@/features/campaigns/NewCampaignPage')).NewCampaignPage }) },
          { path: 'developers', lazy: async () => ({ Component: (await import('@/features/developers/DevelopersPage')).DevelopersPage }) },
          { path: 'do-not-call', lazy: async () => ({ Component: (await import('@/features/compliance/DoNotCallPage')).DoNotCallPage }) },
          { path: 'sandbox', lazy: async () => ({ Component: (await import('@/features/system/SandboxNumbersPage')).SandboxNumbersPage }) },
          { path: 'billing', lazy: async () => ({ Component: (await import('@/features/billing/BillingPage')).BillingPage }) },
        ],
      },
      {
        path: '/admin',
        loader: requireAdmin,
        lazy: async () => ({ Component: (await import('./AppLayout')).AdminLayout }),
        children: [
          { index: true, lazy: async () => ({ Component: (await import('@/features/admin/AdminHome')).AdminHome }) },
          { path: 'user-management', lazy: async () => ({ Component: (await import('@/features/admin/UsersPage')).UsersPage }) },
          { path: 'analysis', lazy: async () => ({ Component: (await import('@/features/admin/AnalyticsPage')).AdminAnalyticsPage }) },
          { path: 'call-logs', lazy: async () => ({ Component: (await import('@/features/admin/CallLogsPage')).AdminCallLogsPage }) },
          { path: 'calls/:callId', lazy: async () => ({ Component: (await import('@/features/admin/CallPage')).AdminCallPage }) },
          { path: 'reports', lazy: async () => ({ Component: (await import('@/features/admin/ReportsPage')).ReportsPage }) },
          { path: 'blogs', lazy: async () => ({ Component: (await import('@/features/admin/PostsPage')).PostsPage }) },
          { path: 'inbox', lazy: async () => ({ Component: (await import('@/features/admin/InboxPage')).InboxPage }) },
          { path: 'do-not-call', lazy: async () => ({ Component: (await import('@/features/admin/GlobalDoNotCallPage')).GlobalDoNotCallPage }) },
          { path: 'test-call-task', lazy: async () => ({ Component: (await import('@/features/admin/TestCallTaskPage')).TestCallTaskPage }) },
          { path: 'system', lazy: async () => ({ Component: (await import('@/features/system/SystemPage')).SystemPage }) },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]
