/** History-API navigation: links change the URL without a reload, Back and Forward work, reloads land on the same page. */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { routeOf, type Route } from "./routes";

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener("popstate", notify);

export function navigate(path: string): void {
  if (path === location.pathname) return;
  history.pushState(null, "", path);
  notify();
}

export function useRoute(): Route {
  const [pathname, setPathname] = useState(location.pathname);
  useEffect(() => {
    const listener = () => setPathname(location.pathname);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return routeOf(pathname);
}

interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  "aria-current"?: "page";
}

/** An ordinary link (middle-click and Ctrl-click open a tab) that navigates in place on a plain click. */
export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
