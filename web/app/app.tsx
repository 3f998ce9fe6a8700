import { ErrorBoundary } from "react-error-boundary";
import { BrowserRouter, useLocation } from "react-router";
import { AppProvider } from "./provider.tsx";
import { RouteError } from "./route-error.tsx";
import { AppRoutes } from "./router.tsx";

export function App() {
  return (
    <AppProvider>
      <BrowserRouter>
        <RouteErrorBoundary />
      </BrowserRouter>
    </AppProvider>
  );
}

/**
 * The pages, with RouteError in place of everything when one throws while
 * rendering or its code fails to load; going to another address tries again.
 */
function RouteErrorBoundary() {
  const location = useLocation();
  return (
    <ErrorBoundary FallbackComponent={RouteError} resetKeys={[location.pathname]}>
      <AppRoutes />
    </ErrorBoundary>
  );
}
