# Thin wrappers of the npm scripts named in README.md.
.PHONY: install up test test-chaos bench lint build images

install:
	npm ci

build: install
	npm run build

up: install
	npm run up

test: install
	npm test

# Only the replica kill test (issue 17); `make test` runs it too.
test-chaos: install
	npm run test:chaos

bench: install
	npm run bench

lint: install
	npm run lint

# Every image of infra/docker/service.Dockerfile built with podman, started against the
# local servers and paid through once (infra/images/build.mjs; installs podman when missing).
images: build
	npm run images
