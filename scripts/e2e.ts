// placeholder until the browser tests land
console.log("e2e: no browser tests yet");
