resource "local_file" "kustomization" {
  filename = "${path.module}/out/kustomization.yaml"
  content  = templatefile("${path.module}/kustomization.tftpl.yaml", { namespace = "shop", apps = ["frontend", "backend"] })
}
