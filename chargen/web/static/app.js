// chargen serve: the one script of the page. It only follows a GM's batch while it is made, and reloads
// the page when it is done; without it the page's "Look again" link does the same by hand.
(function () {
  "use strict";
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
        text.firstChild.textContent = status.done + " of " + status.total + " done. ";
        window.setTimeout(poll, 500);
      })
      .catch(function () { window.setTimeout(poll, 2000); });
  }
  window.setTimeout(poll, 300);
})();
