# Thin wrappers of the npm scripts named in README.md.
.PHONY: install up test test-unit test-chaos bench lint build images

install:
	npm ci

build: install
	npm run build

up: install
	npm run up

test: install
	npm test

# Only the unit tests (every test/unit folder: no server, seconds; after make install); `make test` runs them first.
test-unit:
	npm run test:unit

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
