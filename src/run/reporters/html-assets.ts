// The HTML report's inline CSS and script: status colours, the trail and step layout, and the
// script that filters trails (status, tag, target, text) and draws a step's pictures from the
// run's screen table (marking the nodes each names) when its trail is opened. Nothing here loads
// anything from the network. The page's CSP allows these two by their SHA-256 (html.ts): no style="…" attributes, no inline
// handlers, and the script reads the page's data only through attributes and text, never as markup.

import { WIREFRAME_CSS } from "../../screen/wireframe-svg.ts";

export const REPORT_CSS = `:root{--pass:#2b8a3e;--fail:#c92a2a;--err:#a61e4d;--skip:#868e96;--unv:#d9480f;--line:#dee2e6;--soft:#f8f9fa;--ink:#212529;--dim:#6c757d}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#f1f3f5}
main{max-width:1400px;margin:0 auto;padding:16px 20px 40px}
h1{font-size:20px;margin:0 0 4px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0}
.sub{color:var(--dim)}
.summary{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}
.chip{border-radius:999px;padding:3px 12px;background:#fff;border:1px solid var(--line);font-weight:600}
.chip.passed{color:var(--pass)}.chip.failed{color:var(--fail)}.chip.error{color:var(--err)}.chip.skipped{color:var(--skip)}.chip.unverified{color:var(--unv)}
.banner{background:#fff5f5;border:1px solid #ffc9c9;border-left:4px solid var(--fail);padding:8px 12px;margin:10px 0;border-radius:4px}
.banner h2{font-size:15px;margin:0 0 4px;color:var(--fail)}
.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:center;background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:12px 0}
.filters button{font:inherit;border:1px solid var(--line);background:var(--soft);border-radius:4px;padding:2px 10px;cursor:pointer}
.filters button[aria-pressed=true]{background:#343a40;color:#fff;border-color:#343a40}
.filters select,.filters input{font:inherit;padding:2px 6px;border:1px solid var(--line);border-radius:4px}
.filters .count{margin-left:auto;color:var(--dim)}
details.trail{background:#fff;border:1px solid var(--line);border-left:5px solid var(--skip);border-radius:6px;margin:6px 0}
details.trail.passed{border-left-color:var(--pass)}details.trail.failed{border-left-color:var(--fail)}details.trail.error{border-left-color:var(--err)}
details.trail>summary{cursor:pointer;padding:7px 12px;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline;list-style:none}
details.trail>summary::-webkit-details-marker{display:none}
details.trail>summary::before{content:"▸";color:var(--dim)}
details.trail[open]>summary::before{content:"▾"}
.status{font-weight:700;text-transform:uppercase;font-size:11.5px;letter-spacing:.03em}
.status.passed{color:var(--pass)}.status.failed{color:var(--fail)}.status.error{color:var(--err)}.status.skipped,.status.interrupted{color:var(--skip)}.status.unverified{color:var(--unv)}
.tname{font-weight:600}
.meta{color:var(--dim);font-size:12.5px}
.tag{background:#e7f5ff;color:#1864ab;border-radius:3px;padding:0 6px;font-size:12px}
.why{flex-basis:100%;color:var(--fail);font-size:13px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.tbody{border-top:1px solid var(--line);padding:8px 12px 12px}
.kv{display:flex;flex-wrap:wrap;gap:4px 16px;color:var(--dim);font-size:12.5px;margin-bottom:6px}
.kv b{color:var(--ink);font-weight:500}
ol.steps{list-style:none;margin:0;padding:0}
li.step{display:flex;gap:14px;align-items:flex-start;border-top:1px solid #f1f3f5;padding:6px 0}
li.step:first-child{border-top:0}
.step-main{flex:1;min-width:0}
.step-head{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
.mark{width:16px;text-align:center;font-weight:700}
.step.passed .mark{color:var(--pass)}.step.failed .mark{color:var(--fail)}.step.unverified .mark{color:var(--unv)}.step.skipped .mark,.step.interrupted .mark{color:var(--skip)}
.step.skipped .step-head{color:var(--dim)}
.kind{font-size:11px;color:var(--dim);border:1px solid var(--line);border-radius:3px;padding:0 4px}
.call{margin:3px 0 0 24px;padding:3px 8px;background:var(--soft);border-radius:4px}
.call .args{color:#495057;display:block;max-height:6.5em;overflow:auto;white-space:pre-wrap;word-break:break-all}
.variant.ok{color:var(--pass)}.variant.bad{color:var(--fail)}
.failure{margin:4px 0 0 24px;padding:6px 10px;background:#fff5f5;border-left:3px solid var(--fail);border-radius:3px}
.failure .msg{color:var(--fail);font-weight:600;white-space:pre-wrap;overflow-wrap:anywhere}
.note{margin:3px 0 0 24px;color:var(--unv)}
.mem{margin:3px 0 0 24px;font-size:12.5px}
.agent{margin:4px 0 0 24px;padding:5px 10px;background:#f3f0ff;border-left:3px solid #7048e8;border-radius:3px;font-size:12.5px}
.agent .turns{margin:4px 0 0;padding-left:18px}.agent .turns li{margin:2px 0;overflow-wrap:anywhere}
.agent .ok{color:var(--pass)}.agent .bad{color:var(--fail)}.unv,.variant.unv{color:var(--unv)}
.agent details.shown summary{cursor:pointer;color:var(--dim);font-size:12px}
.agent details.shown pre{max-height:16em;overflow:auto;background:#fff;border:1px solid var(--line);padding:4px 6px;margin:2px 0;font-size:11.5px}
.status.healed,.chip.healed{color:#7048e8}.step.healed .mark{color:#7048e8}
.where{margin:3px 0 0 24px;font-size:12.5px;color:#495057}
.where .wp{font-weight:600;color:#1864ab}
.pics{flex:none;display:flex;gap:8px;align-items:flex-start}
.pics .arrow{align-self:center;color:var(--dim);font-size:18px}
figure.pic{margin:0}
figure.pic figcaption{font-size:11.5px;color:var(--dim);text-align:center;max-width:260px;word-break:break-word}
.wf{width:150px;cursor:zoom-in}
.wf svg{display:block;width:100%;height:auto;border:1px solid var(--line);border-radius:4px}
.step.failed .wf{width:260px}
.wf.big,.step.failed .wf.big{width:420px;cursor:zoom-out}
.wf.none{cursor:default;height:120px;display:flex;align-items:center;justify-content:center;border:1px dashed var(--line);border-radius:4px;color:var(--dim);font-size:12px}
.wf .cap{font-size:11px;color:var(--unv);word-break:break-word}
.conds{margin:3px 0 0 24px;font-size:12.5px}
.conds ul{list-style:none;margin:2px 0;padding:0}
.conds li .mark{display:inline-block;width:14px}
.conds li.ok .mark{color:var(--pass)}.conds li.bad .mark{color:var(--fail)}
.conds li.required b{border-bottom:2px solid var(--pass)}.conds li.forbidden b{border-bottom:2px dashed var(--fail)}.conds li.selector b{border-bottom:2px solid #d9480f}
.web{flex:none;width:320px;font-size:12px}
.web img{max-width:100%;border:1px solid var(--line);border-radius:4px}
.web pre{max-height:14em;overflow:auto;background:var(--soft);padding:4px 6px;border-radius:4px}
[hidden]{display:none!important}
${WIREFRAME_CSS}`;

/** Filters and lazy wireframes; the page reads fine without it (every trail, no pictures). */
export const REPORT_SCRIPT = `(function(){
var trails=Array.prototype.slice.call(document.querySelectorAll("details.trail"));
var state={status:"",tag:"",target:"",text:""};
var count=document.getElementById("count");
function apply(){var shown=0;trails.forEach(function(t){
var tags=JSON.parse(t.getAttribute("data-tags")||"[]");
var ok=(!state.status||t.getAttribute("data-status")===state.status)&&(!state.tag||tags.indexOf(state.tag)>=0)&&(!state.target||t.getAttribute("data-target")===state.target)&&(!state.text||t.textContent.toLowerCase().indexOf(state.text)>=0);
t.hidden=!ok;if(ok)shown++;});
if(count)count.textContent=shown+" of "+trails.length+" trails";}
Array.prototype.forEach.call(document.querySelectorAll("button[data-status]"),function(b,_,all){b.addEventListener("click",function(){
state.status=b.getAttribute("data-status");Array.prototype.forEach.call(all,function(o){o.setAttribute("aria-pressed",String(o===b));});apply();});});
function bind(id,key,lower){var el=document.getElementById(id);if(el)el.addEventListener("input",function(){state[key]=lower?el.value.toLowerCase():el.value;apply();});}
bind("f-tag","tag");bind("f-target","target");bind("f-text","text",true);
function draw(root){Array.prototype.forEach.call(root.querySelectorAll(".wf[data-screen]:not([data-drawn])"),function(wf){
var tpl=document.getElementById("screen-"+wf.getAttribute("data-screen"));if(!tpl)return;
var copy=tpl.content.cloneNode(true);
["match","required","forbidden"].forEach(function(kind){var ids=(wf.getAttribute("data-"+kind)||"").split(",");
Array.prototype.forEach.call(copy.querySelectorAll("rect[data-node-id]"),function(r){if(ids.indexOf(r.getAttribute("data-node-id"))>=0)r.setAttribute("data-"+kind,"");});});
wf.insertBefore(copy,wf.firstChild);wf.setAttribute("data-drawn","");});}
document.addEventListener("click",function(e){var wf=e.target.closest&&e.target.closest(".wf[data-drawn]");if(wf)wf.classList.toggle("big");});
document.addEventListener("toggle",function(e){if(e.target.open)draw(e.target);},true);
trails.forEach(function(t){if(t.open)draw(t);});
if(location.hash){var t=document.getElementById(location.hash.slice(1));if(t&&t.tagName==="DETAILS"){t.open=true;draw(t);}}
apply();})();`;
