// The API reference: /openapi.json rendered with DOM nodes (text only, never HTML from data).
"use strict";
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function schemaName(ref) { return ref ? ref.split("/").pop() : ""; }
function fields(spec, ref) {
  const s = (spec.components && spec.components.schemas || {})[schemaName(ref)];
  if (!s || !s.properties) return null;
  const ul = el("ul");
  for (const [name, p] of Object.entries(s.properties)) {
    const req = (s.required || []).includes(name) ? " (required)" : "";
    ul.appendChild(el("li", `${name}${req}: ${p.description || p.type || ""}`));
  }
  return ul;
}
fetch("/openapi.json").then((r) => r.json()).then((spec) => {
  const box = document.getElementById("endpoints");
  box.replaceChildren();
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const sec = el("section", undefined, "endpoint");
      sec.appendChild(el("h2", `${method.toUpperCase()} ${path}`));
      if (op.summary) sec.appendChild(el("p", op.summary));
      if (op.description) sec.appendChild(el("p", op.description));
      for (const p of op.parameters || []) sec.appendChild(el("p", `${p.in} parameter ${p.name}: ${(p.schema || {}).type || ""}`));
      const body = op.requestBody && op.requestBody.content;
      if (body) {
        for (const [type, media] of Object.entries(body)) {
          sec.appendChild(el("p", `body (${type}): ${schemaName((media.schema || {}).$ref) || ""}`));
          const list = fields(spec, (media.schema || {}).$ref);
          if (list) sec.appendChild(list);
        }
      }
      box.appendChild(sec);
    }
  }
});
