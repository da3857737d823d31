import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { allDirectoryPaths, allPagePaths } from '../platform/menu/menu-model.ts';
import { installNavigator } from '../platform/navigation.ts';
import { FullPageLoading } from '../platform/ui/full-page-loading.tsx';
import { loadShell } from './chunks.ts';
import { AuthGuard } from './guard.tsx';
import {
  DirectoryRedirect,
  HomeRedirect,
  LandingRedirect,
  RedirectRoute,
  RouteError,
  RoutePage,
} from './route-elements.tsx';

const Shell = lazy(() => loadShell().then((m) => ({ default: m.Shell })));
const LoginPage = lazy(() => import('../pages/login.page.tsx').then((m) => ({ default: m.LoginPage })));
const NotFoundPage = lazy(() => import('../pages/error.page.tsx').then((m) => ({ default: m.NotFoundPage })));
const UnauthorizedPage = lazy(() =>
  import('../pages/error.page.tsx').then((m) => ({ default: m.UnauthorizedPage })),
);
const AuthRedirectPage = lazy(() =>
  import('../pages/auth-redirect.page.tsx').then((m) => ({ default: m.AuthRedirectPage })),
);

const open = (element: React.ReactNode) => <Suspense fallback={<FullPageLoading />}>{element}</Suspense>;

/** Every page of the menu tree gets a route; directories open their first page. */
function shellRoutes(): RouteObject[] {
  const pages: RouteObject[] = allPagePaths().map((path) => ({
    path,
    element: <RoutePage path={path} />,
    errorElement: <RouteError />,
  }));
  const dirs: RouteObject[] = allDirectoryPaths().map((path) => ({
    path,
    element: <DirectoryRedirect path={path} />,
  }));
  return [
    { index: true, element: <LandingRedirect /> },
    { path: '/home', element: <HomeRedirect /> },
    { path: '/manage', element: <LandingRedirect /> },
    { path: '/redirect/*', element: <RedirectRoute /> },
    ...pages,
    ...dirs,
  ];
}

export const routes: RouteObject[] = [
  { path: '/login', element: open(<LoginPage />), errorElement: <RouteError /> },
  { path: '/auth-redirect', element: open(<AuthRedirectPage />), errorElement: <RouteError /> },
  { path: '/404', element: open(<NotFoundPage />), errorElement: <RouteError /> },
  { path: '/401', element: open(<UnauthorizedPage />), errorElement: <RouteError /> },
  {
    path: '/',
    element: <AuthGuard />,
    errorElement: <RouteError />,
    children: [{ element: open(<Shell />), errorElement: <RouteError />, children: shellRoutes() }],
  },
  { path: '*', element: <Navigate to="/404" replace /> },
];

export const router = createBrowserRouter(routes);

installNavigator((to, options) => {
  void router.navigate(to, { replace: options?.replace });
});
