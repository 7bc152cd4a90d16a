// chargen serve: the one script of the page, and the page works without it. It follows a GM's batch while
// it is made (without it, "Look again" does the same by hand); on a phone it folds the record and the
// steps taken away until asked for; after a step it puts the focus on the step; it counts 5.2's points
// left as they are typed; and it warns before leaving a step whose entry was changed and not sent (the
// walk itself is kept on this computer at every step).
(function () {
  "use strict";
  var phone = window.matchMedia("(max-width: 63.99em)").matches;
  var record = document.getElementById("record");
  var decided = document.getElementById("decided-steps");
  if (phone) {
    // on a phone the record and the steps taken are folded until asked for: the step comes first
    if (record) { record.open = false; }
    if (decided) { decided.open = false; }
  }
  if (decided) {
    document.querySelectorAll(".stepper a[href^='#done-']").forEach(function (link) {
      link.addEventListener("click", function () { decided.open = true; });
    });
  }
  // After a step is sent, the new page's focus is on the step (the field the walk refused, else the step's
  // heading), not at the top of the page, so a keyboard or a screen reader goes on where the player is.
  var walk = document.querySelector(".walk");
  if (walk) {
    if (window.sessionStorage.getItem("walk-sent")) {
      window.sessionStorage.removeItem("walk-sent");
      var refused = walk.querySelector("[aria-invalid=true]");
      var heading = document.getElementById("step-title");
      if (refused && refused.offsetParent !== null) { refused.focus(); } else if (heading) { heading.focus(); }
    }
    document.querySelectorAll("form").forEach(function (form) {
      form.addEventListener("submit", function () { window.sessionStorage.setItem("walk-sent", "1"); });
    });
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
  var allocation = document.getElementById("allocation");
  if (allocation) {
    // 5.2's control: the points left and how many values sit at each place near the maximum (and above
    // it), counted as the player types (the walk alone decides what it accepts, when the form is sent).
    var places = allocation.querySelectorAll("output.allocation-place");
    var recount = function () {
      var spent = Number(allocation.dataset.placed);
      var typed = [];
      allocation.querySelectorAll("input[type=number]").forEach(function (field) {
        var value = parseInt(field.value, 10);
        if (!isNaN(value)) {
          spent += value;
          typed.push(value);
        }
      });
      places.forEach(function (place) {
        var count = Number(place.dataset.placed);
        typed.forEach(function (value) {
          var over = place.dataset.over !== undefined && value > Number(place.dataset.over);
          count += over || value === Number(place.dataset.value) ? 1 : 0;
        });
        place.value = count;
      });
      document.getElementById("allocation-left").value = Number(allocation.dataset.total) - spent;
    };
    allocation.addEventListener("input", recount);
    recount();
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
