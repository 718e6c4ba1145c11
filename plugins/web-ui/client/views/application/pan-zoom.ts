/**
 * Pan and zoom of an SVG drawing: drag to pan, wheel to zoom around the pointer, and from the keyboard arrows
 * to pan, + and − to zoom, 0 to fit the whole drawing again.
 */
import type { RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

export interface View {
  x: number;
  y: number;
  scale: number;
}

const MIN_SCALE = 0.1;
const MAX_SCALE = 4;
const KEY_PAN = 40;
const KEY_ZOOM = 1.25;

const clamp = (scale: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));

export interface PanZoom {
  view: View;
  svg: RefObject<SVGSVGElement | null>;
  zoom(factor: number): void;
  fit(): void;
  handlers: {
    onPointerDown(event: PointerEvent): void;
    onPointerMove(event: PointerEvent): void;
    onPointerUp(event: PointerEvent): void;
    onWheel(event: WheelEvent): void;
    onKeyDown(event: KeyboardEvent): void;
  };
}

export function usePanZoom(width: number, height: number): PanZoom {
  const svg = useRef<SVGSVGElement>(null);
  const [view, setView] = useState<View>({ x: 0, y: 0, scale: 1 });
  const drag = useRef<{ x: number; y: number } | undefined>(undefined);

  const box = () => svg.current?.getBoundingClientRect() ?? { width: 1, height: 1, left: 0, top: 0 };
  const fit = () => {
    const { width: boxWidth, height: boxHeight } = box();
    const scale = clamp(Math.min(boxWidth / Math.max(width, 1), boxHeight / Math.max(height, 1), 1.5));
    setView({ scale, x: (boxWidth - width * scale) / 2, y: (boxHeight - height * scale) / 2 });
  };
  const zoomAround = (factor: number, cx: number, cy: number) =>
    setView((current) => {
      const scale = clamp(current.scale * factor);
      const ratio = scale / current.scale;
      return { scale, x: cx - (cx - current.x) * ratio, y: cy - (cy - current.y) * ratio };
    });
  const zoom = (factor: number) => {
    const { width: boxWidth, height: boxHeight } = box();
    zoomAround(factor, boxWidth / 2, boxHeight / 2);
  };
  const pan = (dx: number, dy: number) => setView((current) => ({ ...current, x: current.x + dx, y: current.y + dy }));

  useEffect(fit, [width, height]);

  return {
    view,
    svg,
    zoom,
    fit,
    handlers: {
      onPointerDown(event) {
        if (event.button !== 0 || (event.target as Element).closest("[data-topology-node],[data-extra-node]")) return;
        drag.current = { x: event.clientX, y: event.clientY };
        (event.currentTarget as Element).setPointerCapture(event.pointerId);
      },
      onPointerMove(event) {
        if (!drag.current) return;
        pan(event.clientX - drag.current.x, event.clientY - drag.current.y);
        drag.current = { x: event.clientX, y: event.clientY };
      },
      onPointerUp(event) {
        drag.current = undefined;
        (event.currentTarget as Element).releasePointerCapture(event.pointerId);
      },
      onWheel(event) {
        event.preventDefault();
        const { left, top } = box();
        zoomAround(Math.exp(-event.deltaY * 0.0015), event.clientX - left, event.clientY - top);
      },
      onKeyDown(event) {
        if (event.target !== event.currentTarget) return;
        const moves: Record<string, () => void> = {
          ArrowLeft: () => pan(KEY_PAN, 0),
          ArrowRight: () => pan(-KEY_PAN, 0),
          ArrowUp: () => pan(0, KEY_PAN),
          ArrowDown: () => pan(0, -KEY_PAN),
          "+": () => zoom(KEY_ZOOM),
          "=": () => zoom(KEY_ZOOM),
          "-": () => zoom(1 / KEY_ZOOM),
          "0": fit,
        };
        const move = moves[event.key];
        if (!move) return;
        event.preventDefault();
        move();
      },
    },
  };
}
