{{/* Chart name, truncated to the 63 characters of a DNS label. */}}
{{- define "tabula.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-qualified name: <release>-tabula unless the release already names it. */}}
{{- define "tabula.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels every object carries. */}}
{{- define "tabula.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "tabula.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: tabula
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "data"). */}}
{{- define "tabula.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tabula.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Name of the Secret holding credentials. */}}
{{- define "tabula.secretName" -}}
{{- default (printf "%s-secrets" (include "tabula.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* Name of the ServiceAccount. */}}
{{- define "tabula.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}{{ include "tabula.fullname" . }}{{- else -}}default{{- end -}}
{{- end -}}

{{/* The image reference: repository:tag, or repository:tag@digest when image.digest is set; refuses "latest". */}}
{{- define "tabula.image" -}}
{{- if eq (toString .Values.image.tag) "latest" -}}{{- fail "image.tag: pin a version, not latest" -}}{{- end -}}
{{- if .Values.image.digest -}}
{{- printf "%s:%s@%s" .Values.image.repository (toString .Values.image.tag) .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (toString .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* A service's settings merged over the defaults: (dict "root" $ "name" "data"). */}}
{{- define "tabula.serviceValues" -}}
{{- $svc := index .root.Values.services .name | default dict -}}
{{- toYaml (mergeOverwrite (deepCopy .root.Values.defaults) (deepCopy $svc)) -}}
{{- end -}}

{{/* Environment shared by every container: config, secret files, service URLs, OTel. */}}
{{- define "tabula.env" -}}
{{- $root := . -}}
{{- if not (has "SVC_ENCRYPTION_KEYS" .Values.secrets.keys) -}}
{{- fail "secrets.keys must list SVC_ENCRYPTION_KEYS: every pod needs the at-rest key ring from the Secret (a pod's DATA_DIR is not kept, so a generated key would be lost)" -}}
{{- end -}}
{{- range $key := .Values.secrets.keys }}
- name: {{ $key }}_FILE
  value: /var/run/secrets/tabula/{{ $key }}
{{- end }}
{{- if eq .Values.mode "cluster" }}
- name: TABULA_MODE
  value: cluster
{{- range $name, $svc := .Values.services }}
{{- if ne $name "gateway" }}
- name: {{ upper $name }}_SERVICE_URL
  value: {{ printf "http://%s-%s:%v" (include "tabula.fullname" $root) $name $svc.port | quote }}
{{- end }}
{{- end }}
{{- end }}
- name: DATA_DIR
  value: /tmp/tabula
- name: K8S_POD_NAME
  valueFrom: { fieldRef: { fieldPath: metadata.name } }
- name: K8S_NAMESPACE
  valueFrom: { fieldRef: { fieldPath: metadata.namespace } }
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- if .Values.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .Values.otel.endpoint | quote }}
{{- end }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ printf "k8s.pod.name=$(K8S_POD_NAME),k8s.namespace.name=$(K8S_NAMESPACE)%s" (ternary (printf ",%s" .Values.otel.resourceAttributes) "" (ne .Values.otel.resourceAttributes "")) | quote }}
{{- end -}}

{{/* Probes on /healthz (liveness, startup) and /readyz (readiness). */}}
{{- define "tabula.probes" -}}
startupProbe:
  httpGet: { path: /healthz, port: http }
  periodSeconds: {{ .Values.probes.startup.periodSeconds }}
  failureThreshold: {{ .Values.probes.startup.failureThreshold }}
livenessProbe:
  httpGet: { path: /healthz, port: http }
  periodSeconds: {{ .Values.probes.liveness.periodSeconds }}
  failureThreshold: {{ .Values.probes.liveness.failureThreshold }}
  timeoutSeconds: {{ .Values.probes.liveness.timeoutSeconds }}
readinessProbe:
  httpGet: { path: /readyz, port: http }
  periodSeconds: {{ .Values.probes.readiness.periodSeconds }}
  failureThreshold: {{ .Values.probes.readiness.failureThreshold }}
  timeoutSeconds: {{ .Values.probes.readiness.timeoutSeconds }}
{{- end -}}

{{/* Volumes every pod mounts: the secret files and a writable /tmp. */}}
{{- define "tabula.volumes" -}}
- name: secrets
  secret:
    secretName: {{ include "tabula.secretName" . }}
- name: tmp
  emptyDir: {}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "tabula.volumeMounts" -}}
- name: secrets
  mountPath: /var/run/secrets/tabula
  readOnly: true
- name: tmp
  mountPath: /tmp
{{- with .Values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end -}}


{{/* The Service that receives outside traffic: the gateway (cluster) or the standalone pod. */}}
{{- define "tabula.gatewayService" -}}
{{- if eq .Values.mode "cluster" -}}{{ include "tabula.fullname" . }}-gateway{{- else -}}{{ include "tabula.fullname" . }}{{- end -}}
{{- end -}}
