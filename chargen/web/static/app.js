// chargen serve: the one script of the page, and the page works without it. It follows a GM's batch while
// it is made (without it, "Look again" does the same by hand); on a phone it folds the record away until
// asked for; and it warns before leaving a step whose entry was changed and not sent (the walk itself is
// kept on this computer at every step).
(function () {
  "use strict";
  var record = document.getElementById("record");
  if (record && window.matchMedia("(max-width: 63.99em)").matches) {
    record.open = false;
  }
  var answer = document.getElementById("answer");
  if (answer) {
    var changed = false;
    answer.addEventListener("input", function () { changed = true; });
    answer.addEventListener("submit", function () { changed = false; });
    window.addEventListener("beforeunload", function (event) {
      if (changed) {
        event.preventDefault();
        event.returnValue = "";
      }
    });
  }
  var job = document.getElementById("job");
  if (!job || job.dataset.state !== "running") {
    return;
  }
  var bar = document.getElementById("progress");
  var text = document.getElementById("progress-text");
  function poll() {
    fetch(job.dataset.status, { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (status) {
        if (status.state !== "running") {
          window.location.reload();
          return;
        }
        bar.max = status.total || 1;
        bar.value = status.done;
        text.firstChild.textContent = (status.what || "Done") + ": " + status.done + " of " + status.total + ". ";
        window.setTimeout(poll, 500);
      })
      .catch(function () { window.setTimeout(poll, 2000); });
  }
  window.setTimeout(poll, 300);
})();
