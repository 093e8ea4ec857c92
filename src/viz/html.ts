// The viewer page: one self-contained HTML file (inline CSS, JS and SVG; no network). Per
// translated function its captured graphs in trace-tree order, each in a pan/zoom viewport, with
// the graph breaks between them (code, meaning, file:line and the user's source line) linked
// from a sidebar; a search box highlights matching ops everywhere and steps through them.
import { layoutGraph } from './layout.js';
import type { VizDoc } from './model.js';
import { ARROW_DEFS, esc, layoutSvg } from './svg.js';

const CSS = `
*{box-sizing:border-box}body{margin:0;font:13px/1.4 system-ui,sans-serif;color:#222;display:flex;height:100vh}
#side{width:300px;min-width:220px;overflow:auto;border-right:1px solid #ddd;padding:10px;background:#fafafa}
#main{flex:1;overflow:auto;padding:10px 16px}
h1{font-size:17px;margin:0 0 8px}h2{font-size:15px;margin:18px 0 6px}h3{font-size:13px;margin:12px 0 4px;font-weight:600}
#search{width:100%;padding:5px 7px;border:1px solid #bbb;border-radius:4px}#count{color:#666;font-size:12px;margin:4px 0 10px}
#side ul{list-style:none;margin:0;padding:0 0 0 10px}#side li{margin:2px 0}#side a{color:#1a5fb4;text-decoration:none}#side a:hover{text-decoration:underline}
.brk-link{color:#c0392b!important}.seg{margin:6px 0 4px}.viewport{width:100%;height:min(70vh,var(--h));border:1px solid #ccd;border-radius:6px;background:#fff;cursor:grab;touch-action:none;display:block}
.viewport:active{cursor:grabbing}.break{border-left:4px solid #c0392b;background:#fdecea;padding:6px 10px;margin:10px 0;border-radius:4px}
.break code{font-weight:bold}.break pre{margin:4px 0 0;background:#fff;padding:4px 6px;border-radius:3px;overflow:auto}
.break.flash{outline:2px solid #c0392b}.eager{background:#fff3cd;padding:6px 10px;border-radius:4px}
.node.hit rect{stroke:#e67e22!important;stroke-width:3!important}.node.dim{opacity:.25}.node.cur rect{fill:#ffe0b2!important}
.legend span{display:inline-block;margin-right:10px}.sw{display:inline-block;width:12px;height:12px;border:1px solid #888;vertical-align:middle;margin-right:3px;border-radius:2px}
.meta{color:#666;font-size:12px}.hint{color:#777;font-size:12px}
`;

// Pan (drag), zoom (wheel, at the cursor), fit (double click) per viewport; search over every node.
const JS = `
(function(){
var vps=[];
document.querySelectorAll('svg.viewport').forEach(function(svg){
  var g=svg.querySelector('g.vp'),W=+svg.dataset.w,H=+svg.dataset.h,st={s:1,x:0,y:0};
  function apply(){g.setAttribute('transform','translate('+st.x+','+st.y+') scale('+st.s+')');}
  function fit(){var r=svg.getBoundingClientRect();var s=Math.min(1,(r.width-20)/Math.max(W,1),(r.height-20)/Math.max(H,1));st.s=s>0?s:1;st.x=Math.max(10,(r.width-W*st.s)/2);st.y=10;apply();}
  svg.addEventListener('wheel',function(e){e.preventDefault();var r=svg.getBoundingClientRect(),px=e.clientX-r.left,py=e.clientY-r.top,k=Math.exp(-e.deltaY*0.0015);
    k=Math.min(Math.max(k,0.05/st.s),8/st.s);st.x=px-(px-st.x)*k;st.y=py-(py-st.y)*k;st.s*=k;apply();},{passive:false});
  var drag=null;
  svg.addEventListener('pointerdown',function(e){drag={x:e.clientX,y:e.clientY,sx:st.x,sy:st.y};svg.setPointerCapture(e.pointerId);});
  svg.addEventListener('pointermove',function(e){if(!drag)return;st.x=drag.sx+e.clientX-drag.x;st.y=drag.sy+e.clientY-drag.y;apply();});
  svg.addEventListener('pointerup',function(){drag=null;});
  svg.addEventListener('dblclick',fit);
  function center(node){var b=node.getBBox(),m=g.getCTM().inverse().multiply(node.getCTM());
    var cx=m.a*(b.x+b.width/2)+m.c*(b.y+b.height/2)+m.e,cy=m.b*(b.x+b.width/2)+m.d*(b.y+b.height/2)+m.f;
    var r=svg.getBoundingClientRect();st.s=Math.max(st.s,0.8);st.x=r.width/2-cx*st.s;st.y=r.height/2-cy*st.s;apply();}
  vps.push({svg:svg,fit:fit,center:center});fit();
});
window.addEventListener('resize',function(){vps.forEach(function(v){v.fit();});});
var box=document.getElementById('search'),count=document.getElementById('count'),hits=[],cur=-1;
function run(){var q=box.value.trim().toLowerCase();hits=[];cur=-1;
  document.querySelectorAll('g.node').forEach(function(n){n.classList.remove('hit','dim','cur');
    if(!q)return;if(n.dataset.search.indexOf(q)>=0){n.classList.add('hit');hits.push(n);}else n.classList.add('dim');});
  count.textContent=q?hits.length+' match'+(hits.length===1?'':'es')+(hits.length?' (Enter: next)':''):'';}
function next(){if(!hits.length)return;if(cur>=0)hits[cur].classList.remove('cur');cur=(cur+1)%hits.length;var n=hits[cur];n.classList.add('cur');
  var svg=n.ownerSVGElement;while(svg.ownerSVGElement)svg=svg.ownerSVGElement;svg.scrollIntoView({block:'center'});
  vps.forEach(function(v){if(v.svg===svg)v.center(n);});count.textContent=(cur+1)+' / '+hits.length;}
box.addEventListener('input',run);box.addEventListener('keydown',function(e){if(e.key==='Enter'){e.preventDefault();next();}});
document.querySelectorAll('a[href^="#brk"]').forEach(function(a){a.addEventListener('click',function(){var t=document.querySelector(a.getAttribute('href'));
  if(t){t.classList.add('flash');setTimeout(function(){t.classList.remove('flash');},1200);}});});
window.skiffViewer={search:function(q){box.value=q;run();return hits.length;},next:next,viewports:vps.length};
})();
`;

export function renderHtml(doc: VizDoc): string {
  const side: string[] = [];
  const main: string[] = [];
  let nGraphs = 0, nOps = 0, nBreaks = 0;
  doc.functions.forEach((f, fi) => {
    const fid = `fn${fi}`;
    side.push(`<li><a href="#${fid}">${esc(f.name)}</a><ul>`);
    main.push(`<h2 id="${fid}">${esc(f.name)}</h2>`);
    if (f.eager) main.push(`<div class="eager">Runs as plain Python: ${esc(f.eager)}</div>`);
    if (!f.segments.length) main.push('<p class="meta">No graphs captured (the function was not called through the translator).</p>');
    for (const s of f.segments) {
      const sid = `${fid}-${s.id}`;
      const ops = s.graph ? s.graph.nodes.filter((n) => n.kind === 'op').length : 0;
      nOps += ops;
      side.push(`<li><a href="#${sid}">${esc(s.title)}</a>${s.breakAfter ? ` <a class="brk-link" href="#brk-${sid}">break ${esc(s.breakAfter.code)} line ${s.breakAfter.line}</a>` : ''}</li>`);
      main.push(`<div class="seg" id="${sid}" style="margin-left:${s.depth * 18}px"><h3>${esc(s.title)}</h3>`);
      main.push(`<div class="meta">${ops} ops, run ${s.hits} time${s.hits === 1 ? '' : 's'}</div>`);
      if (s.graph) {
        nGraphs++;
        const l = layoutGraph(s.graph);
        const W = Math.ceil(l.width), H = Math.ceil(l.height);
        main.push(`<svg class="viewport" xmlns="http://www.w3.org/2000/svg" data-w="${W}" data-h="${H}" style="--h:${H + 40}px">${ARROW_DEFS}`
          + `<g class="vp">${layoutSvg(l, `${sid}-`)}</g></svg>`);
      }
      if (s.breakAfter) {
        nBreaks++;
        const b = s.breakAfter;
        const next = s.next.map((n) => `<a href="#${fid}-${esc(n)}">${esc(f.segments.find((x) => x.id === n)?.title ?? n)}</a>`).join(', ');
        main.push(`<div class="break" id="brk-${sid}" data-code="${esc(b.code)}" data-line="${b.line}"><code>${esc(b.code)}</code> ${esc(b.meaning)}`
          + `<div><a href="#brk-${sid}">${esc(b.file)}:${b.line}</a>${b.detail ? ` <span class="meta">(${esc(b.detail)})</span>` : ''}</div>`
          + (b.source ? `<pre>${b.line} | ${esc(b.source.replace(/\s+$/, ''))}</pre>` : '')
          + (next ? `<div class="meta">continues in: ${next}</div>` : '') + '</div>');
      }
      main.push('</div>');
    }
    side.push('</ul></li>');
  });
  const legend = '<div class="legend meta"><span><i class="sw" style="background:#e8f0fe"></i>op</span><span><i class="sw" style="background:#e6f4ea"></i>input</span>'
    + '<span><i class="sw" style="background:#fef7e0"></i>parameter</span><span><i class="sw" style="background:#fce8e6"></i>output</span>'
    + '<span><i class="sw" style="border:2px dashed #8e44ad"></i>fused ⚡</span></div>';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(doc.title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${CSS}</style></head>
<body><nav id="side"><h1>${esc(doc.title)}</h1><input id="search" type="search" placeholder="search ops, dtypes, shapes" autocomplete="off">
<div id="count"></div><div class="meta">${doc.functions.length} functions, ${nGraphs} graphs, ${nOps} ops, ${nBreaks} breaks</div>${legend}
<p class="hint">Drag to pan, wheel to zoom, double-click to fit.</p><ul>${side.join('')}</ul></nav>
<main id="main">${main.join('\n')}</main>
<script>${JS}</script></body></html>
`;
}
