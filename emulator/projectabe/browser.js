// The browser, stubbed: just what ProjectABE's emulator modules touch when run
// headless (elements with attributes and events, a 2D canvas that keeps the
// last picture put on it, Event, ImageData, timers, console, performance).
// Nothing here runs on its own: timers are queued for the board to flush, and
// requestAnimationFrame is never called back (the board drives the frames).
import vm from 'node:vm';

export class FakeElement {
  constructor(tag, attrs = {}, parent = null) {
    this.tagName = tag.toUpperCase();
    this.attrs = { ...attrs };
    this.id = attrs.id ?? '';
    this.parentElement = parent;
    this.children = [];
    this.listeners = new Map();
    this.style = {};
    this.clientWidth = 626;
    this.clientHeight = 1004;
    this.width = 0;
    this.height = 0;
    this.context = null;
    if (parent) parent.children.push(this);
  }

  getAttribute(name) {
    return Object.hasOwn(this.attrs, name) ? this.attrs[name] : null;
  }

  setAttribute(name, value) {
    this.attrs[name] = String(value);
  }

  addEventListener(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(fn);
  }

  removeEventListener(type, fn) {
    const list = this.listeners.get(type) ?? [];
    const i = list.indexOf(fn);
    if (i >= 0) list.splice(i, 1);
  }

  /** Call this element's listeners, then its ancestors' when the event bubbles (event.target stays this). */
  dispatchEvent(event) {
    if (!event.target) event.target = this;
    for (let el = this; el; el = event.bubbles ? el.parentElement : null) {
      event.currentTarget = el;
      for (const fn of [...(el.listeners.get(event.type) ?? [])]) fn.call(el, event);
    }
    return true;
  }

  querySelectorAll() {
    return []; // only the skin's cosmetic styling asks
  }

  appendChild(child) {
    child.parentElement = this;
    this.children.push(child);
    return child;
  }

  removeChild(child) {
    this.children = this.children.filter((c) => c !== child);
    return child;
  }

  getContext(kind) {
    if (kind !== '2d') return null;
    this.context ??= new FakeContext2D(this);
    return this.context;
  }
}

/** A 2D context that keeps a copy of the last ImageData put on it: what the player sees. */
class FakeContext2D {
  constructor(canvas) {
    this.canvas = canvas;
    this.image = null;
    this.puts = 0;
  }

  putImageData(image) {
    this.image = { width: image.width, height: image.height, data: Uint8ClampedArray.from(image.data) };
    this.puts += 1;
  }

  createImageData(width, height) {
    return { width, height, data: new Uint8ClampedArray(width * height * 4) };
  }

  drawImage() {}
  fillRect() {}
}

/** mulberry32: a small seeded generator standing in for Math.random (ProjectABE's ADC reads it). */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A fresh vm context that looks enough like a browser page.
 * @param {number} seed Math.random seed inside the context
 * @returns {{ context: object, timers: Array<() => void>, log: string[] }}
 */
export function makeBrowser(seed) {
  const timers = [];
  const log = [];
  const say = (kind) => (...args) => {
    log.push(`${kind}: ${args.map(String).join(' ')}`);
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  const body = new FakeElement('body');
  const document = {
    body,
    documentElement: body,
    createElement: (tag) => new FakeElement(tag),
    createTextNode: (text) => ({ textContent: text }),
    addEventListener() {},
  };
  class Event {
    constructor(type, init = {}) {
      this.type = type;
      this.bubbles = !!init.bubbles;
      this.target = null;
    }
  }
  class ImageData {
    constructor(data, width, height) {
      this.data = data;
      this.width = width;
      this.height = height;
    }
  }
  const sandbox = {
    document,
    Event,
    ImageData,
    console: { log: say('log'), info: say('info'), debug: say('debug'), warn: say('warn'), error: say('error') },
    performance: { now: () => 0 }, // no wall clock: runs must not depend on it
    setTimeout: (fn) => timers.push(fn),
    clearTimeout() {},
    requestAnimationFrame() {},
    navigator: { userAgent: 'node' },
  };
  const context = vm.createContext(sandbox);
  vm.runInContext('globalThis.window = globalThis; globalThis.self = globalThis;', context);
  vm.runInContext('Math', context).random = seededRandom(seed);
  return { context, timers, log };
}
